/**
 * A run's conversation and timeline as the relay sees them (the service's normalized steps and
 * its setup events). Like `run.ts`, unknown values and fields pass through: a future action
 * category, role or event type is kept, never rejected.
 */

/** One content block of a normalized message; `type` tells which fields it has. */
export interface ConversationBlock {
  /** text | action | action_result | event | a future type */
  type: string;
  text?: string;
  /** action: its id; action_result: `action_id` names the action it answers. */
  id?: string;
  action_id?: string;
  category?: string;
  /** Public action name, e.g. run_command, edit_files. */
  name?: string;
  input?: Record<string, unknown>;
  /** action_result: running | completed | failed | denied | a future state. */
  state?: string;
  output?: Record<string, unknown>;
  data?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ConversationMessage {
  /** user | assistant | tool | system | a future role */
  role: string;
  timestamp?: string | null;
  content: ConversationBlock[];
  [key: string]: unknown;
}

export interface ConversationStep {
  id: string;
  description?: string | null;
  summary?: string | null;
  started_at?: string | null;
  completed_at?: string | null;
  messages: ConversationMessage[];
  steps: ConversationStep[];
  [key: string]: unknown;
}

export interface Conversation {
  conversation_id: string;
  steps: ConversationStep[];
  [key: string]: unknown;
}

export interface TimelineEvent {
  event_uuid: string;
  run_id: string;
  /** oz_run_created, oz_run_claimed, worker_container_ready, agent_started, … */
  event_type: string;
  occurred_at: string;
  execution_id?: number | null;
  payload?: Record<string, unknown> | null;
  [key: string]: unknown;
}

export interface Timeline {
  events: TimelineEvent[];
  [key: string]: unknown;
}
