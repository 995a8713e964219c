/**
 * `list [state=…] [name=…] [mine]`: recent runs, only those the place asked in may see.
 *
 * - `list`: the runs started from this channel or this repository (our records, or the
 *   `relay_thread` stamp of a run another replica or an older database recorded).
 * - `list mine`: the asker's own runs. On Slack across every place, answered privately; on
 *   GitHub, which has no private answer, within this repository.
 * - Runs the relay did not start (no record, no stamp) appear only when an admin of
 *   agent-relay named by the operator (SLACK_ADMIN_USERS; marked by the ingress) asks in a
 *   direct message, where everything is listed. A workspace's own admin, asking there, sees
 *   the runs of their own workspace only (the newest LIST_SCAN runs, filtered here).
 *
 * The service filters by our stamps (`metadata[relay_actor]` for `mine`, `metadata[relay_place]`
 * for a place), so a busy team does not push a place's runs out of the list. Runs stamped
 * before `relay_place` existed are found by the older way, which also serves a service
 * without metadata filtering (403 `feature_not_available`): the newest LIST_SCAN runs are
 * read and filtered here. At most LIST_SHOWN are shown.
 */
import type { RunItem } from '../../core/run.js';
import type { Command } from '../../core/command/command.js';
import { listMessage, notice } from '../../core/message/render-model.js';
import type { MessageModel } from '../../core/message/message-model.js';
import { monthNameUtc, monthStartUtc, placeThreadPrefix } from '../../core/place.js';
import { placeBudget } from './budget.js';
import type { RunRecord } from '../../core/ports/index.js';
import { decodeThreadKey, settingsScopeOf, tenantOf } from '../../core/thread-key.js';
import { actorTag, placeTag } from './run-metadata.js';
import type { ListRunsQuery } from '../../core/run.js';
import { isServiceError, type RunPage } from '../../core/ports/index.js';
import { viewOf } from '../../core/message/run-view.js';
import type { RunsDeps } from '../runs-deps.js';
import {
  privateDestination,
  enqueue,
  replyPrivately,
  type Effects,
  type TriggerJob,
} from './trigger-job.js';

export const LIST_SHOWN = 10;
/** How many recent runs a list looks through for the ones this place may see. */
export const LIST_SCAN = 200;

type ListCommand = Extract<Command, { type: 'list' }>;

/** Who sees the answer, and so which runs it may hold. */
export type ListAudience =
  /** Everyone in this place: its own runs. */
  | { kind: 'place'; scope: string }
  /** The asker alone: their runs from every place. */
  | { kind: 'asker' }
  /** An admin of the relay (named by the operator) in a direct message: every run. */
  | { kind: 'admin' }
  /** A workspace's own admin in a direct message: the runs of that workspace. */
  | { kind: 'tenant'; tenant: string };

function isDirectMessage(job: TriggerJob): boolean {
  if (job.trigger.kind === 'direct_message') return true;
  const addr = decodeThreadKey(job.threadKey);
  return addr?.platform === 'slack' && addr.channel.startsWith('D');
}

export function listAudience(deps: RunsDeps, job: TriggerJob, mine: boolean): ListAudience {
  const { trigger } = job;
  const admin = trigger.platform === 'slack' && trigger.actor.admin === true;
  if (admin && isDirectMessage(job) && !mine) {
    if (trigger.actor.relayAdmin === true) return { kind: 'admin' };
    const tenant = tenantOf(job.threadKey);
    if (tenant !== undefined) return { kind: 'tenant', tenant };
  }
  if (mine && trigger.platform === 'slack') return { kind: 'asker' };
  return { kind: 'place', scope: trigger.settingsScope };
}

/** The place a run was started from: our record's thread, else the run's own stamp. */
function placeOf(
  run: Pick<RunItem, 'metadata'>,
  record: RunRecord | undefined,
): string | undefined {
  const key = record?.threadKey ?? run.metadata?.relay_thread;
  return key === undefined ? undefined : settingsScopeOf(key);
}

/** Whether the run was started in the tenant (by our record's thread, else its stamp). */
export function inTenant(
  run: Pick<RunItem, 'metadata'>,
  record: RunRecord | undefined,
  tenant: string,
): boolean {
  const key = record?.threadKey ?? run.metadata?.relay_thread;
  return key !== undefined && tenantOf(key) === tenant;
}

function startedBy(
  run: Pick<RunItem, 'metadata'>,
  record: RunRecord | undefined,
  job: TriggerJob,
): boolean {
  if (run.metadata?.relay_actor === actorTag(job.trigger)) return true;
  return (
    record !== undefined &&
    record.platform === job.trigger.platform &&
    record.requester.id === job.trigger.actor.id
  );
}

/**
 * Whether one run (named by its id) may be shown to whoever asked here: `here` when it was
 * started from this place; `asker` (privately, Slack only) when the asker started it, or an
 * admin asks in a direct message; otherwise `none`: the same rule as `list`.
 */
export type Visibility = 'here' | 'asker' | 'none';

export function visibilityOf(
  deps: RunsDeps,
  job: TriggerJob,
  run: Pick<RunItem, 'metadata'>,
  record: RunRecord | undefined,
): Visibility {
  const audience = listAudience(deps, job, false);
  if (audience.kind === 'admin') return 'asker';
  if (audience.kind === 'tenant' && inTenant(run, record, audience.tenant)) return 'asker';
  if (placeOf(run, record) === job.trigger.settingsScope) return 'here';
  if (job.trigger.platform === 'slack' && startedBy(run, record, job)) return 'asker';
  return 'none';
}

type RunListModel = Extract<MessageModel, { type: 'run_list' }>;

const NOT_HERE =
  'That run was not started here. Ask about it in the channel or repository it was started from.';

/** A run named where the asker may not see it: the private answer that says so. */
export function refusedElsewhere(
  deps: RunsDeps,
  job: TriggerJob,
  command: string,
  runId: string,
  run: Pick<RunItem, 'metadata'>,
  record: RunRecord | undefined,
): Effects | undefined {
  if (visibilityOf(deps, job, run, record) !== 'none') return undefined;
  job.log.info({ runId }, `${command} refused: the run belongs to another place`);
  return replyPrivately(job, notice('info', NOT_HERE));
}

/** The runs carrying our stamp, or undefined when the service cannot filter by metadata. */
async function stamped(
  deps: RunsDeps,
  query: ListRunsQuery,
  metadata: Record<string, string>,
): Promise<RunPage | undefined> {
  try {
    return await deps.agent.listRuns({ ...query, limit: LIST_SHOWN + 1, metadata });
  } catch (err) {
    if (isServiceError(err) && err.serviceCode === 'feature_not_available') return undefined;
    throw err;
  }
}

/** What the list is read from: filtered by stamp where it can be, else the newest runs. */
async function readRuns(
  deps: RunsDeps,
  job: TriggerJob,
  audience: ListAudience,
  command: ListCommand,
): Promise<RunPage> {
  const query: ListRunsQuery = {
    ...(command.state && command.state.length > 0 ? { state: command.state } : {}),
    ...(command.name ? { name: command.name } : {}),
    sort_by: 'created_at',
    sort_order: 'desc',
  };
  if (audience.kind === 'admin') return deps.agent.listRuns({ ...query, limit: LIST_SHOWN + 1 });
  const scan = () => deps.agent.listRuns({ ...query, limit: LIST_SCAN });
  // Every run the relay made carries relay_actor: `mine` needs nothing else.
  if (command.mine)
    return (await stamped(deps, query, { relay_actor: actorTag(job.trigger) })) ?? scan();
  const byPlace = await stamped(deps, query, { relay_place: placeTag(job.trigger) });
  if (!byPlace) return scan();
  if (byPlace.runs.length > LIST_SHOWN) return byPlace;
  // Few stamped runs: older ones (before relay_place) may still be among the newest.
  const older = await scan();
  const seen = new Set(byPlace.runs.map((r) => r.run_id));
  const runs = [...byPlace.runs, ...older.runs.filter((r) => !seen.has(r.run_id))].sort(
    (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at),
  );
  return { runs, hasNextPage: older.hasNextPage };
}

/** The place's month so far: its spend, and its budget when it has one. */
async function placeMonth(
  deps: RunsDeps,
  scope: string,
  now: number,
): Promise<NonNullable<RunListModel['month']>> {
  const budget = await placeBudget(deps, scope, now);
  const spentUsd =
    budget?.spentUsd ??
    (await deps.store.runs.spendSince(placeThreadPrefix(scope), monthStartUtc(now)));
  return {
    name: monthNameUtc(now),
    spentUsd,
    ...(budget ? { budgetUsd: budget.budgetUsd } : {}),
  };
}

export async function listRuns(
  deps: RunsDeps,
  job: TriggerJob,
  command: ListCommand,
): Promise<Effects> {
  const audience = listAudience(deps, job, command.mine);
  const page = await readRuns(deps, job, audience, command);
  const records = new Map(
    (await deps.store.runs.getMany(page.runs.map((r) => r.run_id))).map((r) => [r.runId, r]),
  );
  const visible = page.runs.filter((run) => {
    const record = records.get(run.run_id);
    if (audience.kind === 'admin') return true;
    if (audience.kind === 'tenant') return inTenant(run, record, audience.tenant);
    if (command.mine && !startedBy(run, record, job)) return false;
    if (audience.kind === 'asker') return true;
    return placeOf(run, record) === audience.scope;
  });
  const truncated = visible.length > LIST_SHOWN || page.hasNextPage;
  const now = deps.clock.now();
  const views = visible
    .slice(0, LIST_SHOWN)
    .map((run) => viewOf(records.get(run.run_id), run, now));
  const filters = {
    ...(command.state && command.state.length > 0 ? { state: command.state } : {}),
    ...(command.name ? { name: command.name } : {}),
    ...(command.mine ? { mine: true } : {}),
  };
  job.log.debug({ audience: audience.kind, shown: views.length }, 'runs listed');
  const destination = audience.kind === 'place' ? job.reply : privateDestination(job);
  const message = listMessage(
    views,
    filters,
    truncated,
    audience.kind === 'tenant' ? 'workspace' : audience.kind,
    job.actor,
  );
  if (audience.kind === 'place') message.month = await placeMonth(deps, audience.scope, now);
  return enqueue({ kind: 'post', destination, message });
}
