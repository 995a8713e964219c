/**
 * "Send to agent" on any message opens the start form prefilled with that message; the slash
 * command alone opens it empty. Submitting it starts a run (a fresh one, even where the
 * thread already has a run) in the message's thread, or in a new thread from the channel.
 * The allowlists apply as for any other request; the form says why when they refuse.
 */
import type { SlackRoutes } from '../api/routes.js';
import { z } from 'zod';
import type { Clock, Logger, TriggerSink } from '../../core/ports/index.js';
import { settingsScopeOf } from '../../core/thread-key.js';
import type { Trigger } from '../../core/trigger.js';
import { messageId, slackThreadKey } from '../api/slack-address.js';
import { toPlainText } from '../api/slack-text.js';
import type { WebClient } from '../api/web-client.js';
import type { StartPlace } from './start-form.js';
import {
  readStartForm,
  SEND_TO_AGENT_CALLBACK_ID,
  START_FORM_CALLBACK_ID,
  startFormView,
} from './start-form.js';

export interface StartFormDeps {
  sink: TriggerSink;
  clock: Clock;
  logger: Logger;
  /** Why this person may not start a run in this channel (allowlists), or undefined. */
  refusal(channel: string, user: string): string | undefined;
  /** Tell one person something only they see. */
  whisper(
    to: { channel: string; user: string; team: string; threadTs?: string },
    text: string,
  ): void;
}

const MessageAction = z.object({
  type: z.literal('message_action'),
  trigger_id: z.string().min(1),
  team: z.object({ id: z.string() }).nullish(),
  user: z.object({ id: z.string() }),
  channel: z.object({ id: z.string() }),
  message: z.object({
    ts: z.string(),
    thread_ts: z.string().optional(),
    text: z.string().default(''),
  }),
});
const ViewId = z.object({ view: z.object({ id: z.string().min(1) }) });

/** Open the start form (the slash command alone calls this too). */
export async function openStartForm(
  client: WebClient,
  triggerId: string,
  place: StartPlace,
  prefill = '',
): Promise<void> {
  await client.views.open({ trigger_id: triggerId, view: startFormView(place, prefill) });
}

export function registerStartForm(routes: SlackRoutes, deps: StartFormDeps): void {
  const log = deps.logger.child({ component: 'slack-start-form' });

  routes.shortcut(SEND_TO_AGENT_CALLBACK_ID, async ({ ack, body, client, context }) => {
    await ack();
    const action = MessageAction.safeParse(body);
    const team = context.teamId ?? action.data?.team?.id;
    if (!action.success || team === undefined) {
      log.warn({}, 'Slack message shortcut payload not understood; ignored');
      return;
    }
    const { channel, user, message, trigger_id } = action.data;
    const threadTs = message.thread_ts ?? message.ts;
    const refused = deps.refusal(channel.id, user.id);
    if (refused !== undefined) {
      deps.whisper({ channel: channel.id, user: user.id, team, threadTs }, refused);
      return;
    }
    const place: StartPlace = { team, channel: channel.id, threadTs, messageTs: message.ts };
    await openStartForm(client, trigger_id, place, toPlainText(message.text));
  });

  routes.view(START_FORM_CALLBACK_ID, async ({ ack, body }) => {
    const form = readStartForm(body);
    if (!form.ok) {
      await ack({ response_action: 'errors', errors: form.errors });
      return;
    }
    const { place, user, prompt, options } = form;
    const refused = deps.refusal(place.channel, user.id);
    if (refused !== undefined) {
      await ack({ response_action: 'errors', errors: { prompt: refused } });
      return;
    }
    const viewId = ViewId.parse(body).view.id;
    const threadKey = slackThreadKey(place.team, place.channel, place.threadTs ?? '');
    const optionText = Object.entries(options).map(([k, v]) => `${k}=${v}`);
    const trigger: Trigger = {
      platform: 'slack',
      kind: 'start_form',
      threadKey,
      actor: user,
      text: ['new', ...optionText, prompt].join(' '),
      addressed: true,
      context: {},
      deliveryId: `form:${viewId}`,
      receivedAt: new Date(deps.clock.now()).toISOString(),
      settingsScope: settingsScopeOf({
        platform: 'slack',
        team: place.team,
        channel: place.channel,
        threadTs: '',
      }),
      ...(place.messageTs === undefined
        ? { anchorsNewThread: true }
        : { triggerMessage: { threadKey, id: messageId(place.channel, place.messageTs) } }),
    };
    try {
      const result = await deps.sink.accept(trigger);
      log.info({ deliveryId: trigger.deliveryId, threadKey, result }, 'Slack start form accepted');
    } catch (err) {
      log.error({ err, deliveryId: trigger.deliveryId }, 'Slack start form could not be queued');
      await ack({
        response_action: 'errors',
        errors: {
          prompt: "Sorry, I couldn't take that request right now. Please try again in a minute.",
        },
      });
      return;
    }
    await ack();
  });
}
