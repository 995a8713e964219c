/**
 * A platform's delivery side (Slack, GitHub): post, edit in place, react, and read what a run
 * needs of its thread (Slack: earlier messages; GitHub: a pull request's branches). The outbox
 * posts through it; the use cases only read a thread through it.
 */
import type { MessageModel, ReactionName } from '../message/message-model.js';
import type { MessageRef, Platform } from '../trigger.js';
import type { Destination, SessionStatus } from './store-records.js';

export type { Destination } from './store-records.js';

/**
 * How the outbox posts one notification. `key` is stable across retries: the notifier marks
 * the posted message with it (Slack message metadata, a hidden marker in a GitHub comment).
 * `mayExist` says an earlier attempt may have reached the platform without the relay
 * recording it (a crash, a timeout after the platform accepted): the notifier first looks
 * for a message carrying `key` posted since `since` (epoch ms) and answers with that one.
 */
export interface PostOptions {
  key?: string;
  mayExist?: { since: number };
}

export interface ReactOptions {
  replaces?: readonly ReactionName[];
}

export interface PostResult {
  ref: MessageRef;
  /** Set when posting created a new thread (slash-command status message on Slack). */
  newThreadKey?: string;
}

/**
 * A platform's delivery side. Errors: throw `DeliveryError` (retryable with an optional
 * `retryAfterMs`, or permanent) so the outbox can reschedule or park without reading
 * platform details.
 */
export interface Notifier {
  readonly platform: Platform;
  post(to: Destination, message: MessageModel, options?: PostOptions): Promise<PostResult>;
  update(ref: MessageRef, message: MessageModel): Promise<void>;
  /**
   * Add `reaction`; with `replaces`, first take those of ours off the message (a reaction
   * shows where the run stands now, so the superseded ones go). Missing ones are no error.
   */
  react(target: MessageRef, reaction: ReactionName, options?: ReactOptions): Promise<void>;
  /** Take these reactions of ours off a message (missing ones are no error). */
  unreact?(target: MessageRef, reactions: readonly ReactionName[]): Promise<void>;
  /**
   * Slack: the earlier messages of a thread (bounded by count and characters, bots marked),
   * fetched when a run starts in a thread that has no run yet. Optional per platform.
   */
  fetchThreadMessages?(
    threadKey: string,
    beforeMessage?: MessageRef,
  ): Promise<{ author: string; text: string; isBot?: boolean }[]>;
  /**
   * GitHub: the head and base branches of the pull request a thread is on (an `issue_comment`
   * webhook does not carry them), `undefined` when unknown. Looked up when a run starts, not
   * by the ingress, so the webhook is acknowledged without waiting for GitHub.
   */
  /**
   * Slack: set the status of the thread's agent session. Best effort: a workspace or app
   * without sessions is no error.
   */
  setSessionStatus?(threadKey: string, status: SessionStatus): Promise<void>;
  /**
   * Platforms with `sessionKeepAlive` (Linear): write the short "still working" line the
   * session keeper decided on (runs/tracker/session-keeper.ts), marked with `key` like a post,
   * so a retried delivery writes it once.
   */
  keepAlive?(threadKey: string, options?: PostOptions): Promise<void>;
  fetchPullRequestRefs?(
    threadKey: string,
  ): Promise<{ headRef: string; baseRef: string } | undefined>;
}
