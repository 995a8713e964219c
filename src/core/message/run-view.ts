/**
 * The one place a run's view is built: the service's RunItem plus what the relay recorded
 * (who asked, which settings applied and where from, which factory) becomes the neutral
 * RunView every renderer shows. Pure.
 */
import type { RunItem } from '../run.js';
import { deriveTitle } from '../command/derive-title.js';
import type { RunRecord } from '../ports/store-records.js';
import { formatAgo, formatDuration, parseIsoDuration } from './duration.js';
import type { AppliedSetting, PersonView, RunView } from './message-model.js';
import { runLinks, safeUrl } from './run-links.js';
import { runUsage } from '../run-usage.js';
import { startingStateView, stateView } from './state-view.js';

/** A RunItem as the service sent it; a fresh create knows only id, title and state. */
export type RunViewSource = Partial<RunItem> & Pick<RunItem, 'run_id' | 'title' | 'state'>;

/** What the relay recorded about the run (who asked, which settings applied, which factory). */
export interface RunViewRecord {
  requester?: PersonView;
  applied?: AppliedSetting[];
  factory?: { uid?: string; alias?: string; name?: string };
  /**
   * Run time of earlier executions (ms). Only added to a run time computed here (from
   * `started_at`); the service's own `run_time` already covers every execution.
   */
  earlierRunMs?: number;
  /** The cost and tokens last recorded, for a run whose item carries no usage report. */
  costUsd?: number;
  tokens?: number;
}

export interface RunViewInput {
  run: RunViewSource;
  record?: RunViewRecord;
  /** Epoch ms; ends the run time of an ended run whose updated_at is missing. */
  now?: number;
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The current execution's run time (ms), from its start to its end (or last change). */
function computedRunMs(
  run: RunViewSource,
  settled: boolean,
  now: number | undefined,
): number | undefined {
  if (!settled || !run.started_at) return undefined;
  const start = Date.parse(run.started_at);
  const endedAt = run.finished_at ?? run.updated_at;
  const end = endedAt ? Date.parse(endedAt) : now;
  if (end === undefined || Number.isNaN(start) || Number.isNaN(end) || end < start)
    return undefined;
  return end - start;
}

/**
 * Run time over every execution. The service's `run_time` is cumulative (computed from all
 * of the run's executions), so it is shown as is; only when it is absent is the current
 * execution's time computed here and the earlier executions' added to it.
 */
function runTimeOf(
  run: RunViewSource,
  settled: boolean,
  now: number | undefined,
  earlierMs = 0,
): string | undefined {
  const reported = run.run_time ? parseIsoDuration(run.run_time) : undefined;
  if (reported !== undefined) return formatDuration(reported);
  const current = computedRunMs(run, settled, now);
  return current === undefined ? undefined : formatDuration(current + earlierMs);
}

const CONFIG_FIELD: Partial<
  Record<AppliedSetting['key'], 'model_id' | 'environment_id' | 'skill_spec'>
> = { model: 'model_id', env: 'environment_id', skill: 'skill_spec' };

/**
 * The settings a person is shown: what the service chose is named when the run's
 * agent_config says it (so "service default" still tells which model ran), and factory and
 * mode are left out when nobody set them (there is nothing to tell).
 */
function shownSettings(applied: AppliedSetting[], run: RunViewSource): AppliedSetting[] {
  const shown: AppliedSetting[] = [];
  for (const setting of applied) {
    if (setting.source !== 'service') {
      shown.push(setting);
      continue;
    }
    const field = CONFIG_FIELD[setting.key];
    if (!field) continue;
    const chosen = nonEmpty(run.agent_config?.[field]);
    shown.push(chosen ? { ...setting, value: chosen } : setting);
  }
  return shown;
}

/** The service's report on the item; what was recorded when the item carries none. */
function usageOf(run: RunViewSource, record: RunViewRecord | undefined): RunView['usage'] {
  const reported = runUsage(run);
  const costUsd = reported.costUsd ?? record?.costUsd;
  const tokens = reported.tokens ?? record?.tokens;
  if (costUsd === undefined && tokens === undefined) return undefined;
  return {
    ...(costUsd === undefined ? {} : { costUsd }),
    ...(tokens === undefined ? {} : { tokens }),
  };
}

export function toRunView(input: RunViewInput): RunView {
  const { run, record } = input;
  const state = stateView(run.state);
  const sessionLink = safeUrl(run.session_link);
  const view: RunView = {
    runId: run.run_id,
    title: nonEmpty(run.title) ?? (deriveTitle(run.prompt ?? '') || run.run_id),
    state,
    applied: shownSettings(record?.applied ?? [], run),
    links: runLinks(sessionLink, run.artifacts ?? []),
    // A BLOCKED run waits for input but has not ended: the service may still cancel it.
    actions:
      (state.live || state.blocked) && run.is_run_type_cancellable !== false
        ? ['cancel', 'status']
        : ['status'],
  };
  if (record?.requester) view.requester = record.requester;
  if (record?.factory && (record.factory.alias || record.factory.name)) {
    const { alias, name } = record.factory;
    view.factory = { ...(alias ? { alias } : {}), ...(name ? { name } : {}) };
  }
  if (sessionLink) view.sessionLink = sessionLink;
  const runTime = runTimeOf(run, state.ended || state.blocked, input.now, record?.earlierRunMs);
  if (runTime) view.runTime = runTime;
  const usage = usageOf(run, record);
  if (usage) view.usage = usage;
  const statusMessage = nonEmpty(run.status_message?.message);
  if (statusMessage && state.success !== true) view.statusMessage = statusMessage;
  if (run.created_at) view.createdAt = run.created_at;
  if (run.updated_at) view.updatedAt = run.updated_at;
  const updated = run.updated_at ? Date.parse(run.updated_at) : NaN;
  if (input.now !== undefined && !Number.isNaN(updated)) {
    view.updatedAgo = formatAgo(updated, input.now);
  }
  return view;
}

export function requesterView(run: Pick<RunRecord, 'platform' | 'requester'>): PersonView {
  const { id, name } = run.requester;
  return { platform: run.platform, id, ...(name ? { name } : {}) };
}

export function viewOf(record: RunRecord | undefined, item: RunViewSource, now: number): RunView {
  if (!record) return toRunView({ run: item, now });
  return toRunView({
    run: item,
    record: {
      requester: requesterView(record),
      applied: record.applied,
      ...(record.factory ? { factory: record.factory } : {}),
      ...(record.earlierRunMs ? { earlierRunMs: record.earlierRunMs } : {}),
      ...(record.costUsd === undefined ? {} : { costUsd: record.costUsd }),
      ...(record.tokens === undefined ? {} : { tokens: record.tokens }),
    },
    now,
  });
}

/** What the service knows right after a create (no detail fetched yet). */
export function freshItem(input: {
  runId: string;
  title: string;
  prompt: string;
  state: string;
  at: number;
}): RunViewSource {
  const at = new Date(input.at).toISOString();
  return {
    run_id: input.runId,
    title: input.title,
    prompt: input.prompt,
    state: input.state,
    created_at: at,
    updated_at: at,
  };
}

/**
 * A run's view before the service created it ("Starting…"): what was asked, by whom and with
 * which settings, no run id yet and nothing to press.
 */
export function startingView(input: {
  title: string;
  prompt: string;
  requester: PersonView;
  applied: AppliedSetting[];
  factory?: RunViewRecord['factory'];
}): RunView {
  const view = toRunView({
    run: { run_id: '', title: input.title, prompt: input.prompt, state: 'QUEUED' },
    record: {
      requester: input.requester,
      applied: input.applied,
      ...(input.factory ? { factory: input.factory } : {}),
    },
  });
  return { ...view, state: startingStateView(), actions: [] };
}
