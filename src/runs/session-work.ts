/**
 * A run's agent session and its work, for platforms whose sessions are kept alive
 * (`sessionKeepAlive`, tracker/session-keeper.ts): the session's working state is written in
 * the transaction that commits the run's change (the tracker's, `status`'s, a new run's) or a
 * Stop's answer, so the keeper reads it from the same records the run's notifications come
 * from.
 *
 * Where a Stop's answer is the turn's final activity (`stopAnswerFinal`), the answer leaves a
 * mark on the session; the run's next outcome takes it, in the transaction that queues it,
 * and is dropped when it only says the interrupted run waits (BLOCKED). A follow-up takes the
 * mark too: the run's next question answers it. So the notifier writes what it is given.
 */
import type {
  OutboxPayload,
  PlatformCapabilities,
  RunRecord,
  StoreTx,
} from '../core/ports/index.js';
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
const stopIsFinal = (capabilities: Capabilities, platform: Platform) =>
  capabilities?.[platform]?.stopAnswerFinal === true;

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
 * written): the turn is over, no keep-alive follows the answer, and where the answer is the
 * turn's final activity the session keeps the Stop's mark.
 */
export async function turnEnded(
  tx: StoreTx,
  capabilities: Capabilities,
  run: Pick<RunRecord, 'threadKey' | 'platform'>,
  at: number,
): Promise<void> {
  if (keepsAlive(capabilities, run.platform))
    await tx.linearSessions.setWorking(run.threadKey, false, at);
  if (stopIsFinal(capabilities, run.platform))
    await tx.linearSessions.markStopped(run.threadKey, at);
}

/**
 * Where a run's change is committed with its notifications (in its transaction): what of them
 * is queued. The first outcome after a Stop's answer takes the Stop's mark, and is not queued
 * when it only says the interrupted run waits (BLOCKED): the answer stays the turn's final
 * activity. An outcome that says more (the run ended) is queued.
 */
export async function afterStop(
  tx: StoreTx,
  capabilities: Capabilities,
  run: Pick<RunRecord, 'platform'>,
  notifications: OutboxPayload[],
  at: number,
): Promise<OutboxPayload[]> {
  if (!stopIsFinal(capabilities, run.platform)) return notifications;
  const outcome = notifications.find((p) => p.kind === 'post' && p.message?.type === 'run_outcome');
  if (outcome?.message?.type !== 'run_outcome') return notifications;
  const stopped = await tx.linearSessions.takeStopped(outcome.destination.threadKey, at);
  return stopped && outcome.message.run.state.blocked
    ? notifications.filter((p) => p !== outcome)
    : notifications;
}

/**
 * A run's observed change was written (in its transaction, after the run's row): its session
 * follows the change, and its notifications are queued as a Stop's mark leaves them.
 * Returns what was queued.
 */
export async function commitRunChange(
  tx: StoreTx,
  capabilities: Capabilities,
  before: RunRecord,
  change: { patch: { state?: string }; notifications: OutboxPayload[] },
  at: number,
): Promise<OutboxPayload[]> {
  await followRunWork(tx, capabilities, before, change.patch.state, at);
  const queued = await afterStop(tx, capabilities, before, change.notifications, at);
  for (const payload of queued) await tx.outbox.enqueue(payload, at);
  return queued;
}

/** A follow-up was sent (in its transaction): a Stop's mark goes, the next outcome answers it. */
export async function turnStarted(
  tx: StoreTx,
  capabilities: Capabilities,
  run: Pick<RunRecord, 'threadKey' | 'platform'>,
  at: number,
): Promise<void> {
  if (stopIsFinal(capabilities, run.platform))
    await tx.linearSessions.takeStopped(run.threadKey, at);
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
