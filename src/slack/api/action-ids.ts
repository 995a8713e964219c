/** The action ids of the buttons the relay posts, shared by the renderer and the ingress. */

/** The Cancel button; the ingress listens for it. */
export const CANCEL_ACTION_ID = 'agent_relay_cancel';
/** The Stop button: interrupt the agent's current turn (Cancel ends the run). */
export const STOP_ACTION_ID = 'agent_relay_stop';
/** The "Open session" link button (acknowledged, nothing else). */
export const OPEN_SESSION_ACTION_ID = 'agent_relay_open_session';
/** The Status button of a run choice (`status` without an id, several live runs). */
export const STATUS_ACTION_ID = 'agent_relay_status';

/**
 * The answers to a question about a run (a plan, a cap): each button's value is
 * `<run id>:<version>` (review-value.ts), so a press is bound to the question it was shown on.
 */
export const REVIEW_ACTION_IDS = {
  approve: 'agent_relay_review_approve',
  changes: 'agent_relay_review_changes',
  cancel: 'agent_relay_review_cancel',
  show: 'agent_relay_review_show',
  continue: 'agent_relay_review_continue',
  stop: 'agent_relay_review_stop',
  reject: 'agent_relay_review_reject',
} as const;

/** The "Request changes" form (a modal with one text box). */
export const CHANGES_CALLBACK_ID = 'agent_relay_review_changes_form';
