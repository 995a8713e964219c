/**
 * The earlier messages of a thread, as context for a run started inside it: fetched with
 * conversations.replies, oldest first, bots marked, the triggering message and anything after
 * it left out, and bounded by count and characters (the newest messages are kept).
 */
import { z } from 'zod';
import { truncatePlain } from '../render/mrkdwn.js';
import { toDeliveryError } from '../api/delivery-errors.js';
import { compareTs } from '../api/slack-address.js';
import { toPlainText } from '../api/slack-text.js';
import type { WebClient } from '../api/web-client.js';

export interface ThreadMessage {
  author: string;
  text: string;
  isBot?: boolean;
}

export interface ThreadBounds {
  maxMessages: number;
  maxChars: number;
  /** Pages to read at most (long threads keep their newest part). Default 5. */
  maxPages?: number;
  /** Messages per page (Slack's `limit`). Default 200. */
  pageSize?: number;
}

const TS = z.string().regex(/^\d{1,20}\.\d{1,20}$/);

const RepliesPage = z.object({
  messages: z
    .array(
      z.object({
        ts: TS,
        text: z.string().optional(),
        user: z.string().optional(),
        bot_id: z.string().optional(),
        subtype: z.string().optional(),
        username: z.string().optional(),
        bot_profile: z.object({ name: z.string().optional() }).nullish(),
      }),
    )
    .default([]),
  has_more: z.boolean().optional(),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});
type Reply = z.infer<typeof RepliesPage>['messages'][number];

/** Subtypes that carry what a person said; joins, topic changes and the like do not. */
const SPOKEN = new Set(['bot_message', 'thread_broadcast', 'file_share', 'me_message']);

function toThreadMessage(m: Reply): ThreadMessage | undefined {
  if (m.subtype !== undefined && !SPOKEN.has(m.subtype)) return undefined;
  const text = toPlainText(m.text ?? '').trim();
  if (text === '') return undefined;
  const isBot = m.bot_id !== undefined || m.subtype === 'bot_message';
  if (!isBot) return { author: m.user ?? 'unknown', text };
  return { author: m.bot_profile?.name ?? m.username ?? m.bot_id ?? 'bot', text, isBot: true };
}

/** Keep the newest messages that fit; the oldest kept one may be cut. Oldest first. */
export function boundMessages(messages: ThreadMessage[], bounds: ThreadBounds): ThreadMessage[] {
  const recent = messages.slice(-Math.max(0, bounds.maxMessages));
  const kept: ThreadMessage[] = [];
  let budget = bounds.maxChars;
  for (let i = recent.length - 1; i >= 0 && budget > 0; i--) {
    const m = recent[i];
    if (m === undefined) continue;
    if (m.text.length <= budget) {
      kept.push(m);
      budget -= m.text.length;
      continue;
    }
    if (budget >= 100 || kept.length === 0)
      kept.push({ ...m, text: truncatePlain(m.text, budget) });
    break;
  }
  return kept.reverse();
}

/**
 * `onRateLimited` is told when Slack refuses a later page for its rate limit: the pages read
 * before it are kept (Slack's limit on history reads answers the first page and refuses the
 * next within the minute), rather than losing the context already in hand. A refusal of the
 * first page is the caller's to handle.
 */
export async function fetchThreadMessages(
  client: WebClient,
  where: { channel: string; threadTs: string; beforeTs?: string },
  bounds: ThreadBounds,
  onRateLimited?: () => void,
): Promise<ThreadMessage[]> {
  const collected: ThreadMessage[] = [];
  let cursor: string | undefined;
  const maxPages = bounds.maxPages ?? 5;
  for (let page = 0; page < maxPages; page++) {
    let raw: unknown;
    try {
      raw = await client.conversations.replies({
        channel: where.channel,
        ts: where.threadTs,
        limit: bounds.pageSize ?? 200,
        ...(cursor === undefined ? {} : { cursor }),
      });
    } catch (err) {
      if (page === 0 || toDeliveryError(err, 'conversations.replies').code !== 'rate_limited')
        throw err;
      onRateLimited?.();
      break;
    }
    const parsed = RepliesPage.safeParse(raw);
    if (!parsed.success) break;
    for (const m of parsed.data.messages) {
      if (where.beforeTs !== undefined && compareTs(m.ts, where.beforeTs) >= 0) continue;
      const message = toThreadMessage(m);
      if (message !== undefined) collected.push(message);
    }
    cursor = parsed.data.response_metadata?.next_cursor;
    if (parsed.data.has_more !== true || cursor === undefined || cursor === '') break;
  }
  return boundMessages(collected, bounds);
}
