/**
 * A run's agent session and its work, for platforms whose sessions are kept alive
 * (`sessionKeepAlive`, tracker/session-keeper.ts): the session's working state is written in
 * the transaction that commits the run's change (the tracker's, `status`'s, a new run's) or a
 * Stop's answer, so the keeper reads it from the same records the run's notifications come
 * from.
 */
import type { PlatformCapabilities, RunRecord, StoreTx } from '../core/ports/index.js';
import { stateView } from '../core/message/state-view.js';
import type { Platform } from '../core/trigger.js';

type Capabilities = Partial<Record<Platform, PlatformCapabilities>> | undefined;

/** Whether a run in `state` is working: live, neither waiting for input nor ended. */
export function works(state: string): boolean {
  const view = stateView(state);
  return view.live && !view.blocked && !view.ended;
}

const keepsAlive = (capabilities: Capabilities, platform: Platform) =>
  capabilities?.[platform]?.sessionKeepAlive === true;

/**
 * Where a run's change is committed (in its transaction): its session starts or stops working
 * when the run moves from `before` into or out of a working state. A working run counts as
 * written at `at`, so its quiet period starts afresh.
 */
export async function followRunWork(
  tx: StoreTx,
  capabilities: Capabilities,
  before: Pick<RunRecord, 'threadKey' | 'platform'> & { state?: string },
  state: string | undefined,
  at: number,
): Promise<void> {
  if (state === undefined || !keepsAlive(capabilities, before.platform)) return;
  const working = works(state);
  if (before.state !== undefined && works(before.state) === working) return;
  await tx.linearSessions.setWorking(before.threadKey, working, at);
}

/**
 * A Stop was answered (in the transaction that queues the answer, after the run's row was
 * written): the turn is over, and no keep-alive follows the answer.
 */
export async function turnEnded(
  tx: StoreTx,
  capabilities: Capabilities,
  run: Pick<RunRecord, 'threadKey' | 'platform'>,
  at: number,
): Promise<void> {
  if (keepsAlive(capabilities, run.platform))
    await tx.linearSessions.setWorking(run.threadKey, false, at);
}

/**
 * The thread's current run, by the store's record of it: the last word on whether it works,
 * even when the message that said so to the platform has not been delivered.
 */
export async function currentRun(
  tx: Pick<StoreTx, 'threads' | 'runs'>,
  threadKey: string,
): Promise<RunRecord | undefined> {
  const thread = await tx.threads.get(await tx.threads.resolve(threadKey));
  return thread?.currentRunId ? tx.runs.get(thread.currentRunId) : undefined;
}
