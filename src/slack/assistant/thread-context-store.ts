/**
 * Where an agent-pane thread keeps the channel the person is looking at: in the metadata of
 * the pane's first bot message, as Bolt's default store does, but read and written per thread
 * (Bolt's default also caches one context for every thread of the process).
 */
import type { AssistantConfig } from '@slack/bolt';
import { z } from 'zod';
import { MessageMetadata, type WebClient } from '../api/web-client.js';

type ThreadContextStore = NonNullable<AssistantConfig['threadContextStore']>;
export const CONTEXT_EVENT_TYPE = 'assistant_thread_context';

const Replies = z.object({
  messages: z
    .array(
      z.object({
        user: z.string().optional(),
        subtype: z.string().optional(),
        ts: z.string(),
        text: z.string().optional(),
        blocks: z.array(z.unknown()).optional(),
        metadata: MessageMetadata.optional(),
      }),
    )
    .default([]),
});
const ThreadContext = z.object({
  channel_id: z.string().optional(),
  team_id: z.string().optional(),
  enterprise_id: z.string().nullish(),
});
/**
 * Where a thread's context lives: in the metadata of the pane's first bot message (as Bolt's
 * default store does), read and written per thread, never cached across threads.
 */
export function metadataContextStore(): ThreadContextStore {
  async function first(
    client: WebClient,
    channel: string,
    ts: string,
    botUserId: string | undefined,
  ) {
    const raw = await client.conversations.replies({
      channel,
      ts,
      oldest: ts,
      include_all_metadata: true,
      limit: 4,
    });
    return Replies.parse(raw).messages.find((m) => m.subtype === undefined && m.user === botUserId);
  }
  function where(payload: unknown) {
    const p = z
      .object({
        assistant_thread: z
          .object({
            channel_id: z.string(),
            thread_ts: z.string(),
            context: ThreadContext.optional(),
          })
          .optional(),
        channel: z.string().optional(),
        thread_ts: z.string().optional(),
      })
      .parse(payload);
    return {
      channel: p.assistant_thread?.channel_id ?? p.channel ?? '',
      ts: p.assistant_thread?.thread_ts ?? p.thread_ts ?? '',
      context: p.assistant_thread?.context,
    };
  }
  return {
    async get({ client, payload, context }) {
      const w = where(payload);
      const m = await first(client, w.channel, w.ts, context.botUserId);
      const saved = ThreadContext.safeParse(m?.metadata?.event_payload ?? {});
      return saved.success ? saved.data : {};
    },
    async save({ client, payload, context }) {
      const w = where(payload);
      if (w.context === undefined) return;
      const m = await first(client, w.channel, w.ts, context.botUserId);
      if (m === undefined) return;
      await client.chat.update({
        channel: w.channel,
        ts: m.ts,
        text: m.text ?? '',
        blocks: (m.blocks ?? []) as never[],
        metadata: {
          event_type: CONTEXT_EVENT_TYPE,
          event_payload: Object.fromEntries(
            Object.entries(w.context).filter(
              (e): e is [string, string] => typeof e[1] === 'string',
            ),
          ),
        },
      });
    },
  };
}
