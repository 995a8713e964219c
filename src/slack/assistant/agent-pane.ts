/**
 * Slack's agent pane (assistant threads), with Bolt's Assistant: suggested prompts when a
 * person opens a thread; each message in it goes the way of any direct message (the pane's
 * thread maps to a run like any thread, later messages are follow-ups), with the pane's
 * "is starting your run…" status meanwhile (Slack clears it when the status message
 * arrives). The channel the person is looking at is kept with the thread and, when they ask
 * about "this channel", goes along as context with its latest messages.
 *
 * An app on Slack's agent messaging (`agent_view` in the manifest) gets no
 * `assistant_thread_started`: opening its Messages tab sends `app_home_opened` with
 * `tab: "messages"` (Slack's "migrating to agent messaging" guide), and the greeting is the
 * suggested prompts at the top of that conversation (`api/agent-view-greeting.ts`, called
 * by App Home's listener). Both are handled, so either manifest works.
 */
import type { App } from '@slack/bolt';
import { Assistant } from '@slack/bolt';
import { z } from 'zod';
import type { Logger } from '../../core/ports/index.js';
import type { TriggerContext } from '../../core/trigger.js';
import { slackErrorName } from '../api/delivery-errors.js';
import { slackThreadKey } from '../api/slack-address.js';
import { toPlainText } from '../api/slack-text.js';
import { truncatePlain } from '../render/mrkdwn.js';
import type { WebClient } from '../api/web-client.js';
import { metadataContextStore } from './thread-context-store.js';
import { notPersonsWords, type MessageOrigin } from '../api/persons-words.js';
import { ASKS_ABOUT_CHANNEL } from '../api/asks-about-channel.js';
import { SUGGESTED_PROMPTS } from '../api/agent-view-greeting.js';

export { SUGGESTED_PROMPTS };

export const STARTING_STATUS = 'is starting your run…';
// Within the 15 a request Slack allows apps distributed outside its Marketplace.
const CHANNEL_MESSAGES = 15;

export const GREETING =
  "Hi! Tell me what to do and I'll start a cloud agent run right here; reply in this thread to steer it.";

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

const PaneMessage = z.object({ channel: z.string(), thread_ts: z.string() });
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
      await say(GREETING);
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
      // Slackbot, apps and system messages neither start runs nor get the pane's status.
      const notWords = notPersonsWords(message as MessageOrigin);
      if (notWords !== undefined) {
        log.debug({ reason: notWords }, 'pane message ignored');
        return;
      }
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
