/** The run a thread-level command (status, cancel, follow-up) is about. */
import { stateView } from '../../core/message/state-view.js';
import type { RunRecord } from '../../core/ports/index.js';
import { settingsScopeOf } from '../../core/thread-key.js';
import { SHORT_RUN_ID_LENGTH } from '../../core/message/short-run-id.js';
import type { RunsDeps } from '../runs-deps.js';
import type { TriggerJob } from './trigger-job.js';

export async function currentRunId(
  deps: Pick<RunsDeps, 'store'>,
  threadKey: string,
): Promise<string | undefined> {
  return (await deps.store.threads.get(threadKey))?.currentRunId;
}

export async function currentRun(
  deps: Pick<RunsDeps, 'store'>,
  threadKey: string,
): Promise<RunRecord | undefined> {
  const runId = await currentRunId(deps, threadKey);
  return runId ? deps.store.runs.get(runId) : undefined;
}

/**
 * A run id as given, or the one run of this place whose id starts with it (tables and cards
 * show short ids, as git does); unchanged when none or several match.
 */
async function expandShortId(
  deps: Pick<RunsDeps, 'store'>,
  job: TriggerJob,
  given: string,
): Promise<string> {
  if (given.length < SHORT_RUN_ID_LENGTH || (await deps.store.runs.get(given))) return given;
  const recent = await deps.store.runs.listRecent(job.trigger.settingsScope, SHORT_ID_SEARCH);
  const matches = recent.filter((r) => r.runId.startsWith(given));
  return matches.length === 1 ? matches[0]!.runId : given;
}

/** How many recent runs of a place a short id is looked for in. */
const SHORT_ID_SEARCH = 500;

/** How many of the asker's live runs a choice offers at most. */
export const MAX_CHOICES = 5;

export type RunTarget =
  | { kind: 'run'; runId: string }
  /** Nothing to point at: no run in this thread, or no live run of the asker here. */
  | { kind: 'none'; threadless: boolean }
  /** Several live runs of the asker in this channel: newest first. */
  | { kind: 'choice'; runs: RunRecord[] };

/**
 * What `status` / `cancel` without a run id mean. In a thread: its current run. From a
 * slash command, which has no thread: the asker's latest live run in this channel (for
 * `status` a run waiting for input counts too), or a choice when there are several.
 */
export async function resolveRunTarget(
  deps: Pick<RunsDeps, 'store'>,
  job: TriggerJob,
  action: 'status' | 'cancel',
  runIdArg: string | undefined,
): Promise<RunTarget> {
  if (runIdArg !== undefined)
    return { kind: 'run', runId: await expandShortId(deps, job, runIdArg) };
  const inThread = await currentRunId(deps, job.threadKey);
  if (inThread !== undefined) return { kind: 'run', runId: inThread };
  if (job.trigger.kind !== 'slash_command') return { kind: 'none', threadless: false };
  const { trigger } = job;
  const mine = (await deps.store.runs.listTracked())
    .filter((run) => {
      const state = stateView(run.state);
      return (
        run.platform === trigger.platform &&
        run.requester.id === trigger.actor.id &&
        settingsScopeOf(run.threadKey) === trigger.settingsScope &&
        (state.live || (action === 'status' && state.blocked))
      );
    })
    .sort((a, b) => b.createdAt - a.createdAt);
  const [only] = mine;
  if (only === undefined) return { kind: 'none', threadless: true };
  if (mine.length === 1) return { kind: 'run', runId: only.runId };
  return { kind: 'choice', runs: mine.slice(0, MAX_CHOICES) };
}
