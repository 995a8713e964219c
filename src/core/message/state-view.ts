/**
 * How a run state looks to a person: emoji, label and its kind (live / blocked / ended).
 * The table is keyed by the contract's known states, so the type checker notices a new one.
 * Unknown future states are shown as they come and treated as live (agent-api.md, "States").
 */
import type { KnownRunState } from '../run.js';
import type { ReactionName, StateView } from './message-model.js';

type Kind = 'live' | 'blocked' | 'succeeded' | 'failed';

const STATES: Record<KnownRunState, { label: string; emoji: string; kind: Kind }> = {
  // Words people know, in the order a run goes through them (headline-order.ts).
  QUEUED: { label: 'Waiting for a machine', emoji: '⏳', kind: 'live' },
  PENDING: { label: 'Waiting for a machine', emoji: '⏳', kind: 'live' },
  CLAIMED: { label: 'Getting ready', emoji: '🛫', kind: 'live' },
  INPROGRESS: { label: 'Running', emoji: '🏃', kind: 'live' },
  BLOCKED: { label: 'Waiting for input', emoji: '✋', kind: 'blocked' },
  SUCCEEDED: { label: 'Succeeded', emoji: '✅', kind: 'succeeded' },
  FAILED: { label: 'Failed', emoji: '❌', kind: 'failed' },
  ERROR: { label: 'Error', emoji: '💥', kind: 'failed' },
  CANCELLED: { label: 'Cancelled', emoji: '🚫', kind: 'failed' },
};

/** Every state the contract names, in lifecycle order (live, BLOCKED, ended). */
export const KNOWN_STATE_NAMES: readonly KnownRunState[] = Object.keys(STATES) as KnownRunState[];

export function isKnownState(state: string): state is KnownRunState {
  return Object.prototype.hasOwnProperty.call(STATES, state);
}

const UNKNOWN_EMOJI = '❔';

/**
 * The relay's own state before the service has answered the create: the status message is
 * posted at once with it, and edited to the service's state when the run exists.
 */
export const STARTING_STATE = 'STARTING';

export function startingStateView(): StateView {
  return {
    name: STARTING_STATE,
    label: 'Starting…',
    emoji: '⏳',
    live: true,
    ended: false,
    blocked: false,
  };
}

export function stateView(state: string): StateView {
  if (!isKnownState(state)) {
    return {
      name: state,
      label: state,
      emoji: UNKNOWN_EMOJI,
      live: true,
      ended: false,
      blocked: false,
    };
  }
  const { label, emoji, kind } = STATES[state];
  const ended = kind === 'succeeded' || kind === 'failed';
  const view: StateView = {
    name: state,
    label,
    emoji,
    live: kind === 'live',
    ended,
    blocked: kind === 'blocked',
  };
  if (ended) view.success = kind === 'succeeded';
  return view;
}

/**
 * The reactions a new outcome reaction supersedes on the same message: those that said the
 * run was seen, accepted or waiting. (A follow-up moves the run to its own message, so an
 * earlier outcome is never on the message that gets the new one.)
 */
export function supersededBy(reaction: ReactionName): ReactionName[] {
  const live: ReactionName[] = ['seen', 'accepted', 'blocked'];
  return live.filter((r) => r !== reaction);
}

/** The reaction that shows an ended or BLOCKED state on the triggering message. */
export function outcomeReaction(state: string): ReactionName | undefined {
  const view = stateView(state);
  if (view.blocked) return 'blocked';
  if (!view.ended) return undefined;
  if (view.success) return 'succeeded';
  return state === 'CANCELLED' ? 'cancelled' : 'failed';
}

/** What the bot is doing about a run, as a sentence's verb: "@agent-relay {words}: {title}". */
export function headlineWords(state: StateView): string {
  if (state.success === true) return 'finished';
  if (state.name === 'CANCELLED') return 'stopped (cancelled)';
  if (state.success === false) return `could not finish (${state.label.toLowerCase()})`;
  if (state.blocked) return 'needs an answer';
  if (state.name === 'INPROGRESS') return 'is working on';
  if (state.name === 'QUEUED' || state.name === 'PENDING') return 'is waiting for a machine for';
  if (state.name === 'CLAIMED') return 'is getting ready for';
  if (state.name === STARTING_STATE) return 'is starting';
  return `has (${state.label})`;
}

/** How a run came out: "Run {words}: {title}" (`runTime`: how long it ran). */
export function outcomeWords(run: { state: StateView; runTime?: string }): string {
  const { state } = run;
  const time = run.runTime;
  if (state.blocked) return 'is waiting for your answer';
  if (state.success === true) return `succeeded${time ? ` in ${time}` : ''}`;
  const after = time ? ` after ${time}` : '';
  if (state.name === 'CANCELLED') return `was cancelled${after}`;
  if (state.name === 'FAILED') return `failed${after}`;
  if (state.success === false) return `ended with ${state.label.toLowerCase()}${after}`;
  return `is now ${state.label}`;
}
