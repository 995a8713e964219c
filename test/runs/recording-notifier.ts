/**
 * An in-memory Notifier (a fake of the port, for tests): records every post, update and
 * reaction, hands out message refs, and can be told to fail the next N calls with a
 * DeliveryError.
 */
import type { MessageModel, ReactionName } from '../../src/core/message/message-model.js';
import type { Destination, Notifier, PostResult } from '../../src/core/ports/index.js';
import { DeliveryError } from '../../src/core/ports/index.js';
import type { MessageRef, Platform } from '../../src/core/trigger.js';

export interface RecordedPost {
  to: Destination;
  message: MessageModel;
  ref: MessageRef;
}
export interface RecordedUpdate {
  ref: MessageRef;
  message: MessageModel;
}
export interface RecordedReaction {
  target: MessageRef;
  reaction: ReactionName;
  /** What it superseded (taken off first), when the core said. */
  replaces?: readonly ReactionName[];
}

type Operation = 'post' | 'update' | 'react' | 'unreact' | 'fetchThreadMessages';

export interface RecordingNotifier extends Notifier {
  posts: RecordedPost[];
  updates: RecordedUpdate[];
  reactions: RecordedReaction[];
  /** Reactions taken off a message without a new one. */
  unreactions: { target: MessageRef; reactions: readonly ReactionName[] }[];
  /** Every call in order, failed ones included. */
  calls: { op: Operation; ok: boolean }[];
  /** Fail the next `times` calls of `op` (any op when omitted) with this error. */
  failNext(times: number, error: DeliveryError, op?: Operation): void;
  /** Slash-command posts: the status message anchors a new thread with this key. */
  anchorNewThreads: boolean;
  /** What fetchThreadMessages returns (or throws). */
  threadMessages: { author: string; text: string; isBot?: boolean }[] | Error;
  fetchCalls: { threadKey: string; before?: MessageRef }[];
  /** Messages that ended up at `ref` (post then updates), newest last. */
  historyOf(ref: MessageRef): MessageModel[];
}

export function rateLimited(retryAfterMs?: number): DeliveryError {
  return new DeliveryError('rate_limited', 'rate limited (test)', true, retryAfterMs);
}
export function forbidden(): DeliveryError {
  return new DeliveryError('forbidden', 'not allowed (test)', false);
}

export function createRecordingNotifier(platform: Platform): RecordingNotifier {
  let seq = 0;
  const failures: { op?: Operation; times: number; error: DeliveryError }[] = [];

  function check(op: Operation): void {
    const rule = failures.find((f) => f.times > 0 && (f.op === undefined || f.op === op));
    if (rule) {
      rule.times -= 1;
      notifier.calls.push({ op, ok: false });
      throw rule.error;
    }
    notifier.calls.push({ op, ok: true });
  }

  const notifier: RecordingNotifier = {
    platform,
    posts: [],
    updates: [],
    reactions: [],
    unreactions: [],
    calls: [],
    anchorNewThreads: true,
    threadMessages: [],
    fetchCalls: [],
    failNext(times, error, op) {
      failures.push({ times, error, ...(op ? { op } : {}) });
    },
    async post(to, message): Promise<PostResult> {
      check('post');
      seq += 1;
      const id = `msg-${seq}`;
      const anchor =
        platform === 'slack' &&
        notifier.anchorNewThreads &&
        to.threadKey.endsWith(':') &&
        !to.privateTo;
      const ts = `1700000000.${String(seq).padStart(6, '0')}`;
      const threadKey = anchor ? `${to.threadKey}${ts}` : to.threadKey;
      const ref: MessageRef = { threadKey, id };
      notifier.posts.push({ to, message, ref });
      return anchor ? { ref, newThreadKey: threadKey } : { ref };
    },
    async update(ref, message) {
      check('update');
      notifier.updates.push({ ref, message });
    },
    async react(target, reaction, options) {
      check('react');
      notifier.reactions.push({
        target,
        reaction,
        ...(options?.replaces ? { replaces: options.replaces } : {}),
      });
    },
    async unreact(target, reactions) {
      check('unreact');
      notifier.unreactions.push({ target, reactions });
    },
    async fetchThreadMessages(threadKey, before) {
      check('fetchThreadMessages');
      notifier.fetchCalls.push({ threadKey, ...(before ? { before } : {}) });
      if (notifier.threadMessages instanceof Error) throw notifier.threadMessages;
      return notifier.threadMessages;
    },
    historyOf(ref) {
      const first = notifier.posts.find((p) => p.ref.id === ref.id);
      const later = notifier.updates.filter((u) => u.ref.id === ref.id).map((u) => u.message);
      return [...(first ? [first.message] : []), ...later];
    },
  };
  return notifier;
}
