/**
 * The content of an agent activity (Linear's "activity content payload"): what the relay
 * writes into an agent session. `thought` and `action` show work in progress; `elicitation`
 * asks the person something; `response` and `error` end a turn.
 */
export type ActivityContent =
  | { type: 'thought'; body: string }
  | { type: 'action'; action: string; parameter: string; result?: string }
  | { type: 'elicitation'; body: string }
  | { type: 'response'; body: string }
  | { type: 'error'; body: string };

export interface Activity {
  content: ActivityContent;
  /** Shown only until the next activity (progress that a later one replaces). */
  ephemeral?: boolean;
}
