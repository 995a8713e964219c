/**
 * One run, one look: write what changed (state, check interval) and the notifications it
 * calls for in ONE transaction, from a list item (batch) or a fetched detail (both modes).
 */
import type { RunItem } from '../../core/run.js';
import type {
  AgentService,
  Clock,
  Logger,
  PlatformCapabilities,
  RunRecord,
  Store,
} from '../../core/ports/index.js';
import type { Platform } from '../../core/trigger.js';
import { isServiceError } from '../../core/ports/index.js';
import { RelayError } from '../../core/relay-error.js';
import { logStateChange, observeRun, type TrackingIntervals } from '../run-changes.js';
import type { CycleStats, RunObserver } from './types.js';
import type { ProgressPoller } from './progress-poller.js';
import { finalAgentMessage, pendingAction } from '../../core/message/progress.js';
import { isBlockedState, isEndedState } from '../../core/run.js';
import { planToReview } from '../plan-review.js';
import { readPlan, type PlanContent } from '../read-plan.js';
import { commitRunChange } from '../session-work.js';

export class RateLimited extends RelayError<'rate_limited'> {
  override readonly name = 'RateLimited';
  constructor(readonly retryAfterMs: number | undefined) {
    super('rate_limited', 'the service asked the tracker to slow down');
  }
}

/** Reads and decisions per observation when the record keeps moving underneath. */
const MAX_WRITE_ATTEMPTS = 5;

export function createRunObserver(deps: {
  store: Store;
  agent: AgentService;
  clock: Clock;
  log: Logger;
  intervals: TrackingIntervals;
  /** Called before each fetch (the tracker forgets a nudge once the run is looked at). */
  onLook?: (runId: string) => void;
  /** Progress shown on the status message (kept on the tracker's own edits). */
  progress?: Pick<ProgressPoller, 'progressOf' | 'noteItem'>;
  /** Called once a written patch is committed, with the record it was decided from. */
  onUsage?: (record: RunRecord, patch: Partial<RunRecord>) => void;
  /** What each platform can do (a run's agent session follows its work where it is kept alive). */
  capabilities?: Partial<Record<Platform, PlatformCapabilities>>;
}): RunObserver {
  const { store, agent, clock, log, intervals } = deps;

  /**
   * The agent's final words for the reply a run's end (or BLOCKED) is about to get: read once,
   * before the reply is decided, and only when no reply was sent for this state yet. A run
   * without a conversation, or a failed read, gets the reply without them.
   */
  async function finalWords(
    runId: string,
    item: RunItem,
  ): Promise<{ words?: string; action?: string } | undefined> {
    if (!agent.getConversation) return undefined;
    if (!isEndedState(item.state) && !isBlockedState(item.state)) return undefined;
    const record = await store.runs.get(runId);
    if (!record || record.notifiedState === item.state) return undefined;
    try {
      // A waiting run's words count only when nothing came after them (its question, not
      // the words before the action it waits to have approved).
      const conversation = await agent.getConversation(runId);
      const words = finalAgentMessage(conversation, { lastThing: isBlockedState(item.state) });
      // A waiting run whose last act is an action, unanswered, waits to have it approved.
      const action = isBlockedState(item.state) ? pendingAction(conversation) : undefined;
      return { ...(words ? { words } : {}), ...(action ? { action } : {}) };
    } catch (err) {
      if (!isServiceError(err) || !['not_found', 'unprocessable'].includes(err.code)) {
        log.debug({ err, runId }, "could not read the agent's final words; replying without them");
      }
      return undefined;
    }
  }
  /**
   * The plan a BLOCKED run waits to have approved (plan-review.ts), read once before the
   * reply is decided, like the agent's words.
   */
  async function planOf(runId: string, item: RunItem): Promise<PlanContent | undefined> {
    if (!isBlockedState(item.state)) return undefined;
    const record = await store.runs.get(runId);
    const artifact = record === undefined ? undefined : planToReview(record, item);
    return artifact === undefined ? undefined : readPlan(agent, artifact, log);
  }
  /**
   * Read the record, decide, and write the decision only if the record still says what the
   * decision rests on (a compare-and-set): a second tracker, a follow-up or a cancel that
   * wrote in between makes this one read again and decide again, never queue a notice twice.
   */
  async function apply(runId: string, item: RunItem, stats: CycleStats): Promise<void> {
    deps.progress?.noteItem(item);
    const said = await finalWords(runId, item);
    const agentMessage = said?.words;
    const waitingAction = said?.action;
    const plan = await planOf(runId, item);
    const progress = deps.progress?.progressOf(runId, item.state);
    for (let attempt = 1; ; attempt += 1) {
      const now = clock.now();
      const outcome = await store.transaction(async (tx) => {
        const record = await tx.runs.get(runId);
        if (!record) return { queued: 0, changed: undefined, usage: undefined };
        const observation = observeRun({
          record,
          item,
          now,
          intervals,
          ...(progress ? { progress } : {}),
          ...(agentMessage ? { agentMessage } : {}),
          ...(plan ? { plan } : {}),
          ...(waitingAction ? { waitingAction } : {}),
        });
        if (!(await tx.runs.compareAndUpdate(runId, record, observation.patch))) return 'moved';
        const queued = await commitRunChange(tx, deps.capabilities, record, observation, now);
        if (observation.changed) stats.changed += 1;
        return {
          queued: queued.length,
          changed: observation.changed ? record : undefined,
          usage: { record, patch: observation.patch },
        };
      });
      if (outcome !== 'moved') {
        stats.notifications += outcome.queued;
        // Logged once the decision is committed, so the log never tells a change that was undone.
        if (outcome.changed) logStateChange(log, outcome.changed, item.state, now);
        if (outcome.usage) deps.onUsage?.(outcome.usage.record, outcome.usage.patch);
        return;
      }
      stats.conflicts += 1;
      if (attempt >= MAX_WRITE_ATTEMPTS) {
        log.warn(
          { runId, attempts: attempt },
          'run record keeps changing; looking again next cycle',
        );
        return;
      }
    }
  }

  async function fetchAndApply(run: RunRecord, stats: CycleStats): Promise<void> {
    deps.onLook?.(run.runId);
    let item: RunItem;
    try {
      stats.detailRequests += 1;
      item = await agent.getRun(run.runId);
    } catch (err) {
      if (isServiceError(err) && err.code === 'rate_limit') throw new RateLimited(err.retryAfterMs);
      if (isServiceError(err) && err.code === 'not_found') {
        log.warn({ runId: run.runId }, 'tracked run is unknown to the service; no longer tracked');
        // Conditional: a follow-up or cancel written since this read keeps its run tracked.
        await store.runs.compareAndUpdate(run.runId, run, {
          tracked: false,
          updatedAt: clock.now(),
        });
        return;
      }
      const interval = Math.min(
        intervals.maxMs,
        Math.max(intervals.baseMs, run.checkIntervalMs) * 2,
      );
      log.warn({ err, runId: run.runId }, 'could not fetch run detail; will look again');
      // Conditional: a follow-up or cancel written since this read asked for a look now.
      await store.runs.compareAndUpdate(run.runId, run, {
        nextCheckAt: clock.now() + interval,
        checkIntervalMs: interval,
      });
      return;
    }
    await apply(run.runId, item, stats);
  }

  return { apply, fetchAndApply };
}
