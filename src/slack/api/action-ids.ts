/** The action ids of the buttons the relay posts, shared by the renderer and the ingress. */

/** The Cancel button; the ingress listens for it. */
export const CANCEL_ACTION_ID = 'agent_relay_cancel';
/** The Stop button: interrupt the agent's current turn (Cancel ends the run). */
export const STOP_ACTION_ID = 'agent_relay_stop';
/** The "Open session" link button (acknowledged, nothing else). */
export const OPEN_SESSION_ACTION_ID = 'agent_relay_open_session';
/** The Status button of a run choice (`status` without an id, several live runs). */
export const STATUS_ACTION_ID = 'agent_relay_status';
