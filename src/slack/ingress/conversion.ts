/**
 * What converting a Slack payload yields: a Trigger with where a private answer would go, a
 * thread reply still to be confirmed, or a reason to ignore it.
 */
import type { Trigger } from '../../core/trigger.js';

export interface ConvertContext {
  /** The bot's own user id (from auth.test or configuration), when known. */
  botUserId?: string;
  /** A fixed team id for thread keys (configuration or auth.test); else the payload's. */
  teamId?: string;
  /** Epoch ms. */
  now: number;
}

/** Where a private answer to the source goes: its channel, its person, its thread if any. */
export interface Origin {
  channel: string;
  user: string;
  /** Set when the source message sits inside a thread. */
  threadTs?: string;
  /** The person's own workspace as the payload names it (Slack Connect: another's). */
  userTeam?: string;
}

export type Conversion =
  | ({ type: 'trigger'; trigger: Trigger } & Origin)
  /** A plain reply in a thread: a trigger only if the thread has a run (and the option is on). */
  | ({ type: 'thread_reply'; trigger: Trigger } & Origin)
  | { type: 'ignore'; reason: string };

export const ignore = (reason: string): Conversion => ({ type: 'ignore', reason });

/** The thread a message sits in, unless it is a thread's root or outside any thread. */
export function replyThread(ts: string, threadTs: string | undefined): { threadTs?: string } {
  return threadTs !== undefined && threadTs !== ts ? { threadTs } : {};
}
