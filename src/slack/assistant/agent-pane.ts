/**
 * Slack's agent pane (assistant threads), with Bolt's Assistant: suggested prompts when a
 * person opens a thread; each message in it goes the way of any direct message (the pane's
 * thread maps to a run like any thread, later messages are follow-ups), with the pane's
 * "is starting your run…" status meanwhile (Slack clears it when the status message
 * arrives). The channel the person is looking at is kept with the thread and, when they ask
 * about "this channel", goes along as context with its latest messages.
 */
import type { App, AssistantConfig } from '@slack/bolt';
import { Assistant } from '@slack/bolt';
import { z } from 'zod';
import type { Logger } from '../../core/ports/index.js';
import type { TriggerContext } from '../../core/trigger.js';
import { slackErrorName } from '../api/delivery-errors.js';
import { slackThreadKey } from '../api/slack-address.js';
import { toPlainText } from '../api/slack-text.js';
import { truncatePlain } from '../render/mrkdwn.js';
import type { WebClient } from '../api/web-client.js';

type ThreadContextStore = NonNullable<AssistantConfig['threadContextStore']>;
export const CONTEXT_EVENT_TYPE = 'assistant_thread_context';
export const STARTING_STATUS = 'is starting your run…';
const ASKS_ABOUT_CHANNEL = /\b(this|the|our) channel\b/i;
const CHANNEL_MESSAGES = 20;

export const SUGGESTED_PROMPTS = [
  { title: 'Summarise this channel', message: 'Summarise the latest discussion in this channel' },
  { title: 'Fix a bug', message: 'Fix the bug where ' },
  { title: 'My runs', message: 'list mine' },
];

export interface AgentPaneDeps {
  /** Hand the message on as a direct message (the ingress's own path), with extra context. */
  onMessage(
    body: unknown,
    message: unknown,
    auth: { botUserId?: string | undefined; teamId?: string | undefined },
    extra: Partial<TriggerContext>,
  ): Promise<void>;
  /** Whether the thread already has a run (its first message titles the pane's thread). */
  threadHasRun(threadKey: string): Promise<boolean>;
  logger: Logger;
}

const Replies = z.object({
  messages: z
    .array(
      z.object({
        user: z.string().optional(),
        subtype: z.string().optional(),
        ts: z.string(),
        text: z.string().optional(),
        blocks: z.array(z.unknown()).optional(),
        metadata: z
          .object({
            event_type: z.string(),
            event_payload: z.record(z.string(), z.unknown()).optional(),
          })
          .optional(),
      }),
    )
    .default([]),
});
const PaneMessage = z.object({ channel: z.string(), thread_ts: z.string() });
const ThreadContext = z.object({
  channel_id: z.string().optional(),
  team_id: z.string().optional(),
  enterprise_id: z.string().nullish(),
});
const History = z.object({
  messages: z
    .array(
      z.object({
        user: z.string().optional(),
        bot_id: z.string().optional(),
        text: z.string().default(''),
      }),
    )
    .default([]),
});

/**
 * Where a thread's context lives: in the metadata of the pane's first bot message (as Bolt's
 * default store does), read and written per thread, never cached across threads.
 */
function metadataContextStore(): ThreadContextStore {
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

async function channelMessages(client: WebClient, channel: string) {
  const raw = await client.conversations.history({ channel, limit: CHANNEL_MESSAGES });
  return History.parse(raw)
    .messages.reverse()
    .filter((m) => m.text.trim() !== '')
    .map((m) => ({
      author: m.user ?? m.bot_id ?? 'someone',
      text: toPlainText(m.text),
      ...(m.bot_id ? { isBot: true } : {}),
    }));
}

export function registerAgentPane(app: App, deps: AgentPaneDeps): void {
  const log = deps.logger.child({ component: 'slack-agent-pane' });
  const assistant = new Assistant({
    threadContextStore: metadataContextStore(),
    threadStarted: async ({ say, setSuggestedPrompts }) => {
      await say(
        "Hi! Tell me what to do and I'll start a cloud agent run right here; reply in this thread to steer it.",
      );
      await setSuggestedPrompts({ title: 'Try one of these', prompts: SUGGESTED_PROMPTS });
    },
    threadContextChanged: async ({ saveThreadContext }) => {
      await saveThreadContext();
    },
    userMessage: async ({
      body,
      message,
      context,
      client,
      setStatus,
      setTitle,
      getThreadContext,
    }) => {
      const text = 'text' in message && typeof message.text === 'string' ? message.text : '';
      const where = PaneMessage.safeParse(message);
      const threadKey =
        where.success && context.teamId
          ? slackThreadKey(context.teamId, where.data.channel, where.data.thread_ts)
          : undefined;
      const first = threadKey !== undefined && !(await deps.threadHasRun(threadKey));
      const extra: Partial<TriggerContext> = {};
      if (ASKS_ABOUT_CHANNEL.test(text)) {
        const viewing = (await getThreadContext().catch(() => ({}))) as { channel_id?: string };
        if (viewing.channel_id) {
          const messages = await channelMessages(client, viewing.channel_id).catch(
            (err: unknown) => {
              log.info(
                { err, slackError: slackErrorName(err) },
                'could not read the viewed channel',
              );
              return undefined;
            },
          );
          extra.viewingChannel = { id: viewing.channel_id, ...(messages ? { messages } : {}) };
        }
      }
      await setStatus(STARTING_STATUS).catch((err: unknown) =>
        log.info({ err, slackError: slackErrorName(err) }, 'pane status not set'),
      );
      await deps.onMessage(body, message, context, extra);
      if (first && text.trim() !== '')
        await setTitle(truncatePlain(toPlainText(text).replace(/\s+/g, ' ').trim(), 60)).catch(
          (err: unknown) =>
            log.info({ err, slackError: slackErrorName(err) }, 'pane title not set'),
        );
    },
  });
  app.assistant(assistant);
}
