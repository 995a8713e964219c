/**
 * Finding a post of ours again: each notification is posted with its key in the message's
 * metadata, so a retried post first looks for that key (posting twice is what a crash
 * between Slack's answer and our record would otherwise cause).
 */
import { z } from 'zod';
import type { Logger } from '../../core/ports/index.js';
import { toDeliveryError } from '../api/delivery-errors.js';
import type { slackAddress } from '../api/slack-address.js';
import { MessageMetadata, type WebClient } from '../api/web-client.js';
import type { HistoryLimit } from './history-limit.js';

/** The message metadata type that carries a notification's key (see PostOptions). */
export const NOTIFICATION_EVENT_TYPE = 'agent_relay_notification';
const MarkedMessages = z.object({
  messages: z
    .array(
      z.object({
        ts: z.string(),
        metadata: MessageMetadata.optional(),
      }),
    )
    .default([]),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});
/** A look for an earlier post reads at most this many pages of 200 messages. */
const MAX_LOOKUP_PAGES = 5;

/**
 * The ts of a message of ours carrying `key`, posted since `since`: the thread's replies,
 * or the channel's history for a top-level post. A lookup Slack refuses for good (a
 * missing history scope) falls back to posting: a rare duplicate beats a lost message.
 */
export async function findMarked(
  log: Logger,
  client: WebClient,
  addr: ReturnType<typeof slackAddress>,
  key: string,
  since: number,
  history?: HistoryLimit,
): Promise<string | undefined> {
  const page = history?.pageOf(addr.team) ?? { limit: 200, maxPages: MAX_LOOKUP_PAGES };
  const oldest = (Math.max(0, since) / 1000).toFixed(6);
  const method = addr.threadTs === '' ? 'conversations.history' : 'conversations.replies';
  try {
    let cursor: string | undefined;
    for (let read = 0; read < Math.min(page.maxPages, MAX_LOOKUP_PAGES); read++) {
      const query = {
        channel: addr.channel,
        oldest,
        include_all_metadata: true,
        limit: page.limit,
        ...(cursor === undefined ? {} : { cursor }),
      };
      const raw =
        addr.threadTs === ''
          ? await client.conversations.history(query)
          : await client.conversations.replies({ ...query, ts: addr.threadTs });
      const parsed = MarkedMessages.safeParse(raw).data;
      const marked = parsed?.messages.find(
        (m) =>
          m.metadata?.event_type === NOTIFICATION_EVENT_TYPE &&
          m.metadata.event_payload?.key === key,
      );
      if (marked !== undefined) return marked.ts;
      cursor = parsed?.response_metadata?.next_cursor || undefined;
      if (cursor === undefined) return undefined;
    }
    return undefined;
  } catch (err) {
    const failure = toDeliveryError(err, method);
    if (failure.code === 'rate_limited') history?.rateLimited(addr.team, method);
    if (failure.retryable) throw failure;
    log.warn({ err: failure, method }, 'could not look for an earlier post; posting');
    return undefined;
  }
}
