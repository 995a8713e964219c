/**
 * Headlines only move forward. Within one episode (from a request or follow-up to the next
 * ended or BLOCKED state) a run's headline goes Starting… → Waiting for a machine → Getting
 * ready → Running → its outcome, whatever order the service's states arrive in: a live state
 * that would move the headline back (a listing that lags, a service that re-queues) keeps the
 * headline where it is. An ended or BLOCKED state always shows; the live state after it (a
 * follow-up) opens a new episode.
 */
import { STARTING_STATE, isKnownState, stateView } from './state-view.js';

/** The rank of an ended or BLOCKED state: it always shows, and closes the episode. */
const EPISODE_END = 4;

/**
 * Where a state's headline stands in an episode. A live state the contract does not name
 * ranks with Running: the service is doing something, past waiting for a machine.
 */
export function headlineRank(state: string): number {
  if (state === STARTING_STATE) return 0;
  const view = stateView(state);
  if (view.ended || view.blocked) return EPISODE_END;
  if (!isKnownState(state)) return 3;
  if (state === 'QUEUED' || state === 'PENDING') return 1;
  if (state === 'CLAIMED') return 2;
  return 3;
}

/**
 * The state to show after `shown` when the service reports `next`: `next`, unless both are
 * live and `next` would move the headline back (then `shown` stays).
 */
export function forwardState(shown: string | undefined, next: string): string {
  if (shown === undefined) return next;
  const before = headlineRank(shown);
  const after = headlineRank(next);
  if (before === EPISODE_END || after === EPISODE_END) return next;
  return after < before ? shown : next;
}
