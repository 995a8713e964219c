/**
 * What a change of a run means (pure), for the tracker and the use cases alike: given what the
 * store holds and what the service says now, the patch to write and the notifications to queue
 * with it, in one transaction.
 * The status message is edited on every change; an ended or BLOCKED state gets one reply
 * and one reaction per episode (`notifiedState`); a live state opens a new episode.
 */
import type { RunItem } from '../core/run.js';
import { runUsage } from '../core/run-usage.js';
import type { Logger, OutboxPayload, RunRecord } from '../core/ports/index.js';
import { runOutcomeMessage, runStatusMessage } from '../core/message/render-model.js';
import { stateView } from '../core/message/state-view.js';
import { viewOf } from '../core/message/run-view.js';
import { outcomeReaction, supersededBy } from '../core/message/state-view.js';
import { forwardState } from '../core/message/headline-order.js';
import { afterReacting, oursToTakeOff, reactionTarget } from '../core/message/our-reactions.js';
import type { ProgressView } from '../core/message/progress.js';
import type { ReviewView, RunView } from '../core/message/message-model.js';
import { planFields, planToReview } from './plan-review.js';

/** `notifiedState` value meaning "nothing notified in this episode" (the store keeps ''). */
export const NOT_NOTIFIED = '';

export interface TrackingIntervals {
  baseMs: number;
  maxMs: number;
  blockedMs: number;
}

export interface Observation {
  changed: boolean;
  patch: Partial<Omit<RunRecord, 'runId'>>;
  notifications: OutboxPayload[];
}

/** Epoch ms of an RFC 3339 timestamp, undefined when absent or unparsable. */
export function epochOf(timestamp: string | null | undefined): number | undefined {
  if (!timestamp) return undefined;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Whether the service's view differs from what the store holds. A view older than the one
 * already seen (a lagging listing, an out-of-order commit) is not a change: applying it would
 * move the run backwards.
 */
export function hasChanged(
  record: RunRecord,
  item: Pick<RunItem, 'state' | 'updated_at'>,
): boolean {
  // A state held back (headline-order.ts) is no change either while nothing else moved.
  const shown = forwardState(record.state, item.state);
  if (shown === record.state && item.updated_at === record.serviceUpdatedAt) return false;
  const seen = epochOf(record.serviceUpdatedAt);
  const listed = epochOf(item.updated_at);
  return seen === undefined || listed === undefined || listed >= seen;
}

/**
 * A list item without any of the detail-only fields: a service whose list returns summaries.
 * The final (ended or BLOCKED) message is then built from the run's detail instead.
 */
export function looksLikeSummary(item: RunItem): boolean {
  return !('artifacts' in item) && !('status_message' in item) && !('run_time' in item);
}

/**
 * The usage the service reports now, where it differs from the record's: a figure the service
 * stopped reporting keeps its last value (the spend it counted does not vanish).
 */
export function usagePatch(
  record: Pick<RunRecord, 'costUsd' | 'tokens'>,
  item: RunItem,
): Pick<Partial<RunRecord>, 'costUsd' | 'tokens'> {
  const usage = runUsage(item);
  const patch: Pick<Partial<RunRecord>, 'costUsd' | 'tokens'> = {};
  if (usage.costUsd !== undefined && usage.costUsd !== record.costUsd)
    patch.costUsd = usage.costUsd;
  if (usage.tokens !== undefined && usage.tokens !== record.tokens) patch.tokens = usage.tokens;
  return patch;
}

/** The next per-run interval while nothing changes: grows by half up to the cap. */
export function grownInterval(record: RunRecord, intervals: TrackingIntervals): number {
  const state = stateView(record.state);
  if (state.blocked || state.ended) return intervals.blockedMs;
  const current = Math.max(intervals.baseMs, record.checkIntervalMs);
  return Math.min(intervals.maxMs, Math.round(current * 1.5));
}

export function observeRun(input: {
  record: RunRecord;
  item: RunItem;
  now: number;
  intervals: TrackingIntervals;
  /** What the status message shows of the agent's work now (kept on a state's edit). */
  progress?: ProgressView;
  /** The agent's own final words, for the reply when the run ends or waits. */
  agentMessage?: string;
  /**
   * The plan a BLOCKED run waits to have approved (plan-review.ts decides when a BLOCKED
   * episode is one): its reply is the plan with its answers, bound to a new review version.
   */
  plan?: { title?: string; markdown?: string; url?: string };
  /** The action a BLOCKED run stopped at, unanswered: it waits to have it approved. */
  waitingAction?: string;
}): Observation {
  const { record, item, now, intervals } = input;
  const state = stateView(item.state);
  if (!hasChanged(record, item)) {
    const interval = grownInterval(record, intervals);
    const patch: Observation['patch'] = { nextCheckAt: now + interval, checkIntervalMs: interval };
    const settledAndNotified =
      stateView(record.state).ended && record.notifiedState === record.state;
    if (settledAndNotified) {
      // A record write the batch tracker notices (it reads the records written since).
      patch.tracked = false;
      patch.updatedAt = now;
    }
    return { changed: false, patch, notifications: [] };
  }

  const interval = state.blocked || state.ended ? intervals.blockedMs : intervals.baseMs;
  // What the card shows, and the record keeps: never a step back within an episode.
  const shown = forwardState(record.state, item.state);
  const patch: Observation['patch'] = {
    state: shown,
    serviceUpdatedAt: item.updated_at,
    nextCheckAt: now + interval,
    checkIntervalMs: interval,
    updatedAt: now,
  };
  if (item.title && item.title !== record.title) patch.title = item.title;
  Object.assign(patch, usagePatch(record, item));
  const view = viewOf(record, shown === item.state ? item : { ...item, state: shown }, now);
  const destination = { threadKey: record.threadKey };
  const notifications: OutboxPayload[] = [];
  // Edit the status message only when what it shows moves: a new updated_at alone (the
  // service touching the run) would cost a platform API call and change nothing on screen.
  const firstLook = record.serviceUpdatedAt === undefined;
  const episodeEnds = state.ended || state.blocked;
  // A plan whose Markdown was not read (a `status` that saw the change first) is still told
  // as a plan, by its title and link.
  const artifact = input.plan === undefined ? planToReview(record, item) : undefined;
  const fields = artifact === undefined ? undefined : planFields(artifact);
  const plan =
    input.plan ??
    (fields === undefined
      ? undefined
      : {
          ...(fields.title ? { title: fields.title } : {}),
          ...(fields.url ? { url: fields.url } : {}),
        });
  const planWaits = state.blocked && plan !== undefined;
  const newPlan = planWaits && episodeEnds && record.notifiedState !== item.state;
  const version = (record.review?.version ?? 0) + 1;
  // The card carries the plan and its answers too (GitHub's status comment and check run).
  const card: RunView = newPlan
    ? { ...view, review: { kind: 'plan', version, plan: plan ?? {} } }
    : view;
  if (shown !== record.state || (firstLook && Boolean(item.session_link))) {
    notifications.push({
      kind: 'status',
      destination,
      runId: record.runId,
      message: runStatusMessage(input.progress ? { ...card, progress: input.progress } : card),
      observedAt: now,
    });
  }

  // A run that waits to have one action approved gets the same bound answers.
  const capOpen = record.review?.kind === 'cap' && record.review.status === 'open';
  const newAction =
    !planWaits &&
    !capOpen &&
    state.blocked &&
    input.waitingAction !== undefined &&
    record.notifiedState !== item.state;
  // The question is a reply of its own, linked to the status card; the record keeps it open.
  const ask = (run: RunView, review: ReviewView & { kind: 'action' | 'plan' }) => {
    const cardUrl = record.statusMessage?.url;
    const message = { type: 'review' as const, run, review, ...(cardUrl ? { cardUrl } : {}) };
    notifications.push({
      kind: 'post',
      destination,
      runId: record.runId,
      message,
      observedAt: now,
    });
    patch.review = { kind: review.kind, version, status: 'open' };
  };
  if (newAction)
    ask(input.agentMessage ? { ...view, agentMessage: input.agentMessage } : view, {
      kind: 'action',
      version,
      action: { what: input.waitingAction! },
    });
  if (newPlan) ask(view, { kind: 'plan', version, plan: plan ?? {} });
  // A run stopped at its cap has its question (cap-reached.ts): no second reply for it.
  const capWaits =
    state.blocked && record.review?.kind === 'cap' && record.review.status === 'open';
  if (episodeEnds && record.notifiedState !== item.state) {
    if (!planWaits && !capWaits && !newAction)
      notifications.push({
        kind: 'post',
        destination,
        runId: record.runId,
        message: runOutcomeMessage(
          input.agentMessage ? { ...view, agentMessage: input.agentMessage } : view,
          {
            ...(record.statusMessage?.url ? { cardUrl: record.statusMessage.url } : {}),
            ...(record.triggerMessage?.url ? { requestUrl: record.triggerMessage.url } : {}),
          },
        ),
        observedAt: now,
      });
    const reaction = outcomeReaction(item.state);
    if (record.triggerMessage && reaction) {
      // Only what the relay put there comes off (our-reactions.ts).
      const replaces = oursToTakeOff(record.triggerMessage, supersededBy(reaction));
      notifications.push({
        kind: 'react',
        destination,
        runId: record.runId,
        target: reactionTarget(record.triggerMessage),
        reaction,
        ...(replaces.length > 0 ? { replaces } : {}),
        observedAt: now,
      });
      patch.triggerMessage = afterReacting(record.triggerMessage, reaction, replaces);
    }
    patch.notifiedState = item.state;
  } else if (!episodeEnds && record.notifiedState) {
    patch.notifiedState = NOT_NOTIFIED;
  }
  // A question the run moved on from without an answer here is closed: a press on it now
  // says so and does nothing. A run stopped at its cap by a cancel (it could not be
  // interrupted) still waits for Continue: only its working again closes that question.
  const movedOn = record.review?.kind === 'cap' ? state.live : !state.blocked;
  if (record.review?.status === 'open' && !planWaits && shown !== record.state && movedOn)
    patch.review = { ...record.review, status: 'closed' };
  if (state.ended && patch.notifiedState === item.state) patch.tracked = false;
  if (state.ended && record.notifiedState === item.state) patch.tracked = false;
  return { changed: true, patch, notifications };
}

/**
 * The lifecycle line operators follow a run by: every state change at info, with the run,
 * its thread and how long since the relay recorded it.
 */
export function logStateChange(
  log: Logger,
  record: Pick<RunRecord, 'runId' | 'threadKey' | 'state' | 'createdAt'>,
  state: string,
  now: number,
): void {
  if (state === record.state) return;
  log.info(
    {
      runId: record.runId,
      threadKey: record.threadKey,
      from: record.state,
      state,
      durationMs: Math.max(0, now - record.createdAt),
    },
    'run state changed',
  );
}
