/**
 * The neutral event every ingress produces (docs/architecture.md, "The flow"). Slack and GitHub turn
 * their payloads into a Trigger, write it to the inbox, and only then acknowledge.
 */
import type { ReactionName } from './message/message-model.js';

export type Platform = 'slack' | 'github' | 'linear' | 'jira' | 'teams';

/** The answers to a question about a run (a plan, a cap); `show` asks for the whole plan. */
export const REVIEW_ANSWERS = [
  'approve',
  'changes',
  'cancel',
  'show',
  'continue',
  'stop',
  'reject',
] as const;
export type ReviewAnswer = (typeof REVIEW_ANSWERS)[number];

export interface Actor {
  /** Slack user id (U…) or GitHub login. */
  id: string;
  /** Display name where the platform gave one. */
  name?: string;
  /** GitHub `author_association` (OWNER, MEMBER, …); absent on Slack. */
  association?: string;
  /**
   * Slack: the person's own workspace as the payload names it (in a Slack Connect channel,
   * another organisation's), for the access check to ask about.
   */
  team?: string;
  /**
   * An admin of the tenant the trigger came from, as the access check found after the
   * acknowledgement (Slack: a person on the operator's list, else an admin or owner of this
   * workspace; GitHub: a repository admin; Linear and Jira: an admin of the workspace or
   * project, asked for a `config` change). They cancel anyone's run and change the defaults of
   * a place in their own tenant, never another's. Absent: not an admin.
   */
  admin?: boolean;
  /**
   * An admin of the whole relay, named by the operator (`SLACK_ADMIN_USERS`): the only people
   * who see and act across tenants (every run, in a direct message). A workspace's own admins
   * never are. Absent: not one.
   */
  relayAdmin?: boolean;
}

/** What kind of platform event produced the trigger. */
export type TriggerKind =
  | 'slash_command'
  | 'mention'
  | 'thread_reply'
  | 'direct_message'
  | 'cancel_button'
  /** Slack: the Stop button of a status message (interrupt, not cancel). */
  | 'stop_button'
  /** Slack: Stop in an agent session (`agent_session_stopped`). */
  | 'session_stopped'
  | 'status_button'
  /** Slack: the start form (message shortcut "Send to agent", or the slash command alone). */
  | 'start_form'
  | 'issue_comment'
  | 'review_comment'
  | 'issue_opened'
  | 'pull_request_opened'
  | 'label'
  /** GitHub: a check run's Stop or Cancel button (`text` is `stop` or `cancel`, `runId` set). */
  | 'check_run_action'
  /** GitHub: "Re-run" on a run's check run (`runId` set): try that run again. */
  | 'check_run_rerequested'
  /** Linear: an agent session opened (an issue delegated to the app, or the app mentioned). */
  | 'agent_session'
  /** Linear: a person's further message in an agent session (a `stop` signal included). */
  | 'agent_prompt'
  /** Jira: the issue assigned to the relay's account. */
  | 'assigned'
  /** Teams: "Send to agent-relay" (the message extension's action) on a message. */
  | 'message_action'
  /**
   * An answer to a question about a run pressed on a button (`review` says which answer and
   * the version it was shown with; `runId` set): approve, changes (the words in `text`),
   * cancel, show the whole plan, continue past a cap, stop there.
   */
  | 'review_answer';

/**
 * A message that the bot can react to or point back at. `id` is opaque to the core: only the
 * platform's notifier reads it (Slack: `channel:ts`; GitHub: `issue:<comment id>`,
 * `review:<comment id>`, `issue-body:<number>`).
 */
export interface MessageRef {
  threadKey: string;
  id: string;
  url?: string;
  /**
   * On a run's trigger message: the reactions the relay put there and has not taken off, so
   * that only those are ever taken off (our-reactions.ts). Absent on records written before.
   */
  reactions?: ReactionName[];
}

/** Context the agent gets with a new run (docs/architecture.md, "Context the agent gets"). */
export interface TriggerContext {
  /** Earlier messages of the Slack thread, oldest first, already bounded by the ingress. */
  threadMessages?: { author: string; text: string; isBot?: boolean }[];
  /** GitHub issue or pull request the comment belongs to. */
  issue?: {
    repo: string; // owner/name
    number: number;
    title: string;
    body: string; // bounded by the ingress
    url: string;
    isPullRequest: boolean;
    headRef?: string;
    baseRef?: string;
  };
  /** The triggering comment (GitHub). */
  comment?: { url: string; body: string };
  /** Review-comment runs: where the comment sits in the diff. */
  review?: { path: string; line?: number; diffHunk: string };
  /**
   * Slack's agent pane: the channel the person was looking at when they asked about "this
   * channel", with its latest messages (oldest first, bounded by the ingress) when readable.
   */
  viewingChannel?: { id: string; messages?: { author: string; text: string; isBot?: boolean }[] };
  /** A link to the triggering message, recorded as the run's trigger_url. */
  permalink?: string;
}

export interface Trigger {
  platform: Platform;
  kind: TriggerKind;
  /** Opaque thread key (see thread-key.ts); parsed only by its encoder/decoder. */
  threadKey: string;
  actor: Actor;
  /**
   * The words addressed to the bot. When `addressed` is true the ingress already knows the
   * bot is addressed (slash command, DM, Slack mention with the mention stripped, button)
   * and `text` is just the words; otherwise the parser looks for the mention or `/agent`.
   */
  text: string;
  addressed: boolean;
  /**
   * The words are the prompt of a fresh run, whatever they start with (an issue labelled for
   * the agent, a delegated Linear issue titled "Cancel the old export"): never a command.
   */
  freshRun?: boolean;
  context: TriggerContext;
  /** Slack: the Enterprise Grid organisation the request came to, as the payload said. */
  enterprise?: string;
  /** The platform's delivery id (Slack event_id / trigger_id; GitHub X-GitHub-Delivery). */
  deliveryId: string;
  /**
   * What the inbox deduplicates on when the platform's delivery id is a header its signature
   * does not cover: an identity taken from the signed body (GitHub: a hash of the body; Linear:
   * the session or message the event is about), so a signed body sent again under a new
   * delivery id is a duplicate. Absent: the delivery id.
   */
  dedupeKey?: string;
  /** RFC 3339 time the ingress accepted it. */
  receivedAt: string;
  /** The message that triggered this (for reactions); absent for slash commands. */
  triggerMessage?: MessageRef;
  /**
   * Scope whose defaults apply (`slack:{team}:{channel}` or `github:{owner}/{repo}`), and
   * where `config key=value` writes.
   */
  settingsScope: string;
  /**
   * Slash commands and buttons: answer only the caller (ephemeral), except a prompt which
   * posts the status message for everyone. Absent: answer in the thread.
   */
  replyPrivatelyTo?: string;
  /**
   * Slash-command prompts have no thread yet: the run's status message becomes the thread.
   * The thread key then names the channel with an empty thread part, and the notifier
   * returns the new thread's key when it posts.
   */
  anchorsNewThread?: boolean;
  /**
   * Slack slash commands: Slack's `response_url` for this command. Private answers to the
   * caller go through it (usable a few times for 30 minutes), so they reach the person even
   * in a channel the bot is not in. A capability: never logged.
   */
  responseUrl?: string;
  /** Run id carried by a button (Cancel on the status message). */
  runId?: string;
  /** A `review_answer`: which answer, to which version of the run's question. */
  review?: { answer: ReviewAnswer; version: number };
  /** A GitHub `factory:<alias>` label dispatches to that factory. */
  factoryAlias?: string;
}
