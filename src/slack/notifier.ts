/**
 * The Slack side of the outbox (Notifier port): post, edit in place, react, and read a
 * thread's earlier messages. Every failure leaves as a `DeliveryError` at once (a 429 with
 * its Retry-After), so the outbox decides when to try again.
 */
import type { MessageModel, ReactionName } from '../core/message-model.js';
import type { Clock, Destination, Logger, Notifier, PostResult } from '../core/ports.js';
import { DeliveryError } from '../core/ports.js';
import type { MessageRef } from '../core/trigger.js';
import { slackErrorName, toDeliveryError } from './delivery-errors.js';
import type { SlackMessage } from './render-blocks.js';
import { renderSlackMessage } from './render-blocks.js';
import { messageId, parseMessageId, slackAddress, slackThreadKey } from './slack-address.js';
import type { ThreadMessage } from './thread-messages.js';
import { fetchThreadMessages } from './thread-messages.js';
import type { WebClient } from './web-client.js';
import { createWebClient } from './web-client.js';
import { z } from 'zod';

export interface SlackNotifierDeps {
  botToken: string;
  apiUrl?: string;
  logger: Logger;
  clock?: Clock;
  /** Thread context bounds (defaults: 30 messages, 8,000 characters). */
  maxThreadMessages?: number;
  maxThreadChars?: number;
  /** Per-request timeout of the Web API client (default 10 s). */
  timeoutMs?: number;
}

export type SlackNotifier = Notifier & { readonly platform: 'slack' };

/** Slack emoji names for the reactions the core asks for. */
export const REACTION_EMOJI: Record<ReactionName, string> = {
  seen: 'eyes',
  accepted: 'ok_hand',
  succeeded: 'white_check_mark',
  failed: 'x',
  blocked: 'double_vertical_bar',
  cancelled: 'no_entry_sign',
};

const Posted = z.object({ ts: z.string().regex(/^\d{1,20}\.\d{1,20}$/) });
const PostedEphemeral = z.object({ message_ts: z.string().optional() });

/** Slack rejected our blocks (a renderer bug): the words still reach the person. */
const BLOCKS_REJECTED = new Set(['invalid_blocks', 'invalid_blocks_format']);

export function createSlackNotifier(deps: SlackNotifierDeps): SlackNotifier {
  const client: WebClient = createWebClient({
    token: deps.botToken,
    apiUrl: deps.apiUrl,
    logger: deps.logger,
    timeoutMs: deps.timeoutMs,
  });
  const log = deps.logger.child({ component: 'slack-notifier' });
  const bounds = {
    maxMessages: deps.maxThreadMessages ?? 30,
    maxChars: deps.maxThreadChars ?? 8_000,
  };

  /** Call with blocks; if Slack rejects the blocks themselves, once more with text only. */
  async function call<T>(
    method: string,
    send: (m: Partial<SlackMessage>) => Promise<T>,
    message: SlackMessage,
  ): Promise<T> {
    try {
      return await send(message);
    } catch (err) {
      const name = slackErrorName(err);
      if (name === undefined || !BLOCKS_REJECTED.has(name)) throw toDeliveryError(err, method);
      log.error({ err, method }, 'Slack rejected the rendered blocks; sending text only');
      try {
        return await send({ text: message.text });
      } catch (again) {
        throw toDeliveryError(again, method);
      }
    }
  }

  return {
    platform: 'slack',

    async post(to: Destination, model: MessageModel): Promise<PostResult> {
      const addr = slackAddress(to.threadKey);
      const message = renderSlackMessage(model);
      const thread = addr.threadTs === '' ? {} : { thread_ts: addr.threadTs };
      if (to.privateTo !== undefined) {
        const user = to.privateTo;
        const raw = await call(
          'chat.postEphemeral',
          (m) =>
            client.chat.postEphemeral({
              channel: addr.channel,
              user,
              text: m.text ?? '',
              ...(m.blocks ? { blocks: m.blocks } : {}),
              ...thread,
            }),
          message,
        );
        const ts = PostedEphemeral.safeParse(raw).data?.message_ts ?? '0.0';
        return { ref: { threadKey: to.threadKey, id: messageId(addr.channel, ts) } };
      }
      const raw = await call(
        'chat.postMessage',
        (m) =>
          client.chat.postMessage({
            channel: addr.channel,
            text: m.text ?? '',
            ...(m.blocks ? { blocks: m.blocks } : {}),
            ...thread,
            unfurl_links: false,
            unfurl_media: false,
          }),
        message,
      );
      const posted = Posted.safeParse(raw);
      if (!posted.success) {
        throw new DeliveryError('unknown', 'Slack chat.postMessage: answered without a ts', false);
      }
      const ts = posted.data.ts;
      if (addr.threadTs !== '') {
        return { ref: { threadKey: to.threadKey, id: messageId(addr.channel, ts) } };
      }
      const newThreadKey = slackThreadKey(addr.team, addr.channel, ts);
      return { ref: { threadKey: newThreadKey, id: messageId(addr.channel, ts) }, newThreadKey };
    },

    async update(ref: MessageRef, model: MessageModel): Promise<void> {
      const { channel, ts } = parseMessageId(ref);
      const message = renderSlackMessage(model);
      await call(
        'chat.update',
        (m) =>
          client.chat.update({
            channel,
            ts,
            text: m.text ?? '',
            ...(m.blocks ? { blocks: m.blocks } : { blocks: [] }),
          }),
        message,
      );
    },

    async react(target: MessageRef, reaction: ReactionName): Promise<void> {
      const { channel, ts } = parseMessageId(target);
      try {
        await client.reactions.add({ channel, timestamp: ts, name: REACTION_EMOJI[reaction] });
      } catch (err) {
        if (slackErrorName(err) === 'already_reacted') return;
        throw toDeliveryError(err, 'reactions.add');
      }
    },

    async fetchThreadMessages(
      threadKey: string,
      beforeMessage?: MessageRef,
    ): Promise<ThreadMessage[]> {
      const addr = slackAddress(threadKey);
      if (addr.threadTs === '') return [];
      const beforeTs = beforeMessage === undefined ? undefined : parseMessageId(beforeMessage).ts;
      try {
        return await fetchThreadMessages(
          client,
          {
            channel: addr.channel,
            threadTs: addr.threadTs,
            ...(beforeTs === undefined ? {} : { beforeTs }),
          },
          bounds,
        );
      } catch (err) {
        throw toDeliveryError(err, 'conversations.replies');
      }
    },
  };
}
