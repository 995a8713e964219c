/**
 * Rows <-> records. JSON columns are read back through light zod schemas (trust, but
 * verify): a damaged row becomes a `StoreError` with code `corrupt` instead of a record
 * that crashes a worker later.
 */
import { z } from 'zod';
import type {
  InboxItem,
  InboxStatus,
  OutboxItem,
  OutboxPayload,
  OutboxStatus,
  RunRecord,
  SettingRecord,
  StartMessageRecord,
  ThreadRecord,
} from '../../core/ports/index.js';
import type { OptionKey } from '../../core/message/message-model.js';
import type { Platform, Trigger } from '../../core/trigger.js';
import { StoreError } from '../errors.js';
import type {
  InboxTable,
  OutboxTable,
  RunsTable,
  SettingsTable,
  StartMessagesTable,
  ThreadsTable,
} from '../schema.js';
import type { Selectable } from 'kysely';

const platform = z.enum(['slack', 'github', 'linear', 'jira', 'teams']);
const messageRef = z.looseObject({
  threadKey: z.string(),
  id: z.string(),
  url: z.string().optional(),
});

const triggerSchema = z.looseObject({
  platform,
  kind: z.string(),
  threadKey: z.string(),
  actor: z.looseObject({ id: z.string() }),
  text: z.string(),
  addressed: z.boolean(),
  freshRun: z.boolean().optional(),
  context: z.looseObject({}),
  deliveryId: z.string(),
  receivedAt: z.string(),
  settingsScope: z.string(),
});

const payloadSchema = z.looseObject({
  kind: z.enum(['post', 'status', 'react', 'session', 'keep_alive']),
  destination: z.looseObject({ threadKey: z.string() }),
});

const requesterSchema = z.looseObject({ id: z.string(), name: z.string().optional() });
const appliedSchema = z.array(z.looseObject({ key: z.string(), source: z.string() }));
const factorySchema = z.looseObject({ uid: z.string() });
const reviewSchema = z.looseObject({
  kind: z.enum(['plan', 'cap', 'action']),
  version: z.number().int(),
  status: z.enum([
    'open',
    'approved',
    'rejected',
    'changes',
    'cancelled',
    'continued',
    'stopped',
    'closed',
  ]),
  decidedBy: z.string().optional(),
});

function readJson<S extends z.ZodType>(text: string, schema: S, what: string): z.infer<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new StoreError('corrupt', `stored ${what} is not valid JSON`, { cause: err });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid';
    throw new StoreError('corrupt', `stored ${what} does not match its shape (${where})`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

function readOptionalJson<S extends z.ZodType>(
  text: string | null,
  schema: S,
  what: string,
): z.infer<S> | undefined {
  return text === null ? undefined : readJson(text, schema, what);
}

/** Optional record fields are absent (not `undefined`-valued) when the column is NULL. */
function optional<K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } {
  return (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** PostgreSQL returns `bigint` as a string; SQLite as a number. */
const num = (value: number | string): number => Number(value);

/** A boolean as SQLite (0 or 1) or PostgreSQL (true or false) answers it. */
export function truthy(value: unknown): boolean {
  return value === true || Number(value) > 0;
}

export function toThread(row: Selectable<ThreadsTable>): ThreadRecord {
  return {
    threadKey: row.thread_key,
    platform: row.platform as Platform,
    ...optional('currentRunId', row.current_run_id),
    ...optional('startedBy', row.started_by),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
  };
}

export function toRun(row: Selectable<RunsTable>): RunRecord {
  const what = (field: string): string => `run ${row.run_id} ${field}`;
  return {
    runId: row.run_id,
    threadKey: row.thread_key,
    platform: row.platform as Platform,
    requestId: row.request_id,
    requester: readJson(
      row.requester,
      requesterSchema,
      what('requester'),
    ) as RunRecord['requester'],
    title: row.title,
    state: row.state,
    ...optional('serviceUpdatedAt', row.service_updated_at),
    applied: readJson(row.applied, appliedSchema, what('applied')) as RunRecord['applied'],
    ...optional(
      'factory',
      readOptionalJson(row.factory, factorySchema, what('factory')) as RunRecord['factory'],
    ),
    ...optional(
      'triggerMessage',
      readOptionalJson(row.trigger_message, messageRef, what('trigger message')),
    ),
    ...optional(
      'statusMessage',
      readOptionalJson(row.status_message, messageRef, what('status message')),
    ),
    ...optional('notifiedState', row.notified_state),
    ...optional('earlierRunMs', row.earlier_run_ms === null ? null : num(row.earlier_run_ms)),
    ...optional('costUsd', row.cost_micro_usd === null ? null : num(row.cost_micro_usd) / 1e6),
    ...optional('tokens', row.total_tokens === null ? null : num(row.total_tokens)),
    ...optional('capUsd', row.cap_micro_usd === null ? null : num(row.cap_micro_usd) / 1e6),
    ...optional('review', readOptionalJson(row.review, reviewSchema, what('review'))),
    nextCheckAt: num(row.next_check_at),
    checkIntervalMs: num(row.check_interval_ms),
    tracked: num(row.tracked) === 1,
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
  };
}

const json = (value: unknown): string => JSON.stringify(value);
const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : json(value));

/** Column values for the given run fields only (used by insert and by partial updates). */
export function runColumns(run: Partial<RunRecord>): Partial<RunsTable> {
  const columns: Partial<RunsTable> = {};
  const set = <K extends keyof RunsTable>(key: K, value: RunsTable[K] | undefined): void => {
    if (value !== undefined) columns[key] = value;
  };
  set('run_id', run.runId);
  set('thread_key', run.threadKey);
  set('platform', run.platform);
  set('request_id', run.requestId);
  set('requester', run.requester === undefined ? undefined : json(run.requester));
  set('requester_id', run.requester?.id);
  set('title', run.title);
  set('state', run.state);
  set('service_updated_at', run.serviceUpdatedAt);
  set('applied', run.applied === undefined ? undefined : json(run.applied));
  set('factory', run.factory === undefined ? undefined : jsonOrNull(run.factory));
  set('trigger_message', run.triggerMessage === undefined ? undefined : json(run.triggerMessage));
  set('status_message', run.statusMessage === undefined ? undefined : json(run.statusMessage));
  set('notified_state', run.notifiedState);
  set('earlier_run_ms', run.earlierRunMs);
  set('cost_micro_usd', run.costUsd === undefined ? undefined : Math.round(run.costUsd * 1e6));
  set('total_tokens', run.tokens);
  set('cap_micro_usd', run.capUsd === undefined ? undefined : Math.round(run.capUsd * 1e6));
  set('review', run.review === undefined ? undefined : json(run.review));
  set('next_check_at', run.nextCheckAt);
  set('check_interval_ms', run.checkIntervalMs);
  set('tracked', run.tracked === undefined ? undefined : run.tracked ? 1 : 0);
  set('created_at', run.createdAt);
  set('updated_at', run.updatedAt);
  return columns;
}

/**
 * Statuses of a queue item (a trigger in the inbox, a notification in the outbox) that still
 * has to be handled: it holds its thread's place, and the thread is not pruned under it.
 * (`deferred` is the inbox's alone; `parked` and `failed` are given up, not open.)
 */
export const OPEN_STATUSES: readonly string[] = ['pending', 'processing', 'deferred'];

export function toInboxItem(row: Selectable<InboxTable>): InboxItem {
  return {
    id: num(row.id),
    deliveryId: row.delivery_id,
    threadKey: row.thread_key,
    trigger: readJson(row.trigger, triggerSchema, `inbox item ${row.id} trigger`) as Trigger,
    status: row.status as InboxStatus,
    attempts: num(row.attempts),
    nextAttemptAt: num(row.next_attempt_at),
    waitNoticeSent: num(row.wait_notice_sent) === 1,
    ...optional('lastError', row.last_error),
    createdAt: num(row.created_at),
  };
}

/** A notification's stored payload; `what` names it in the error when it cannot be read. */
export function toOutboxPayload(text: string, what: string): OutboxPayload {
  return readJson(text, payloadSchema, what) as OutboxPayload;
}

export function toOutboxItem(row: Selectable<OutboxTable>): OutboxItem {
  return {
    id: num(row.id),
    threadKey: row.thread_key,
    payload: toOutboxPayload(row.payload, `outbox item ${row.id} payload`),
    status: row.status as OutboxStatus,
    attempts: num(row.attempts),
    nextAttemptAt: num(row.next_attempt_at),
    ...optional('lastError', row.last_error),
    createdAt: num(row.created_at),
  };
}

export function toSetting(row: Selectable<SettingsTable>): SettingRecord {
  return {
    scope: row.scope,
    key: row.key as OptionKey,
    value: row.value,
    ...optional('updatedBy', row.updated_by),
    updatedAt: num(row.updated_at),
  };
}

export function toStartMessage(row: Selectable<StartMessagesTable>): StartMessageRecord {
  return {
    requestId: row.request_id,
    threadKey: row.thread_key,
    ...optional('message', readOptionalJson(row.message, messageRef, 'start message')),
    createdAt: Number(row.created_at),
  };
}
