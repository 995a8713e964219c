/**
 * "Send to agent" on any message opens the start form prefilled with that message; the slash
 * command alone opens it empty. Submitting it starts a run (a fresh one, even where the
 * thread already has a run) in the message's thread, or in a new thread from the channel.
 * The allowlists apply as for any other request; the form says why when they refuse. The
 * place travels sealed, for the person it was opened for, and a submission is checked again
 * against the submitter's workspace and their membership of the channel.
 */
import type { SlackRoutes } from '../api/routes.js';
import { z } from 'zod';
import type { Catalogue, Clock, Logger, TriggerSink } from '../../core/ports/index.js';
import { catalogueChoices } from '../api/catalogue-choices.js';
import { settingsScopeOf } from '../../core/thread-key.js';
import type { Trigger } from '../../core/trigger.js';
import { messageId, slackThreadKey } from '../api/slack-address.js';
import { toPlainText } from '../api/slack-text.js';
import type { WebClient } from '../api/web-client.js';
import type { StartPlace } from './start-form.js';
import type { StartFormSeal } from './start-form-seal.js';
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
  /** Why this person may not start a run in this channel (allowlists, guests…), or undefined. */
  refusal(where: {
    team: string;
    enterprise?: string | undefined;
    channel: string;
    user: string;
    userTeam?: string | undefined;
  }): Promise<string | undefined>;
  seal: StartFormSeal;
  /** The service's environments and models, offered as choices. */
  catalogue?: Catalogue;
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
  user: z.object({ id: z.string(), team_id: z.string().optional() }),
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
  sealed: string,
  prefill = '',
  catalogue?: Catalogue,
): Promise<void> {
  const choices = await catalogueChoices(catalogue);
  await client.views.open({
    trigger_id: triggerId,
    view: startFormView(place, prefill, sealed, choices),
  });
}

const Members = z.object({
  members: z.array(z.string()).default([]),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});

/** Whether `user` is in `channel` (conversations.members, a few pages at most). */
async function isMember(client: WebClient, channel: string, user: string): Promise<boolean> {
  let cursor: string | undefined;
  for (let page = 0; page < 20; page += 1) {
    const raw = await client.conversations.members({
      channel,
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    const answer = Members.parse(raw);
    if (answer.members.includes(user)) return true;
    cursor = answer.response_metadata?.next_cursor;
    if (!cursor) return false;
  }
  return false;
}

const NOT_MEMBER = "Sorry, you can only start a run in a conversation you're in.";
const UNREAD = 'Sorry, this form could not be read. Please open it again.';

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
    const refused = await deps.refusal({
      team,
      enterprise: context.enterpriseId,
      channel: channel.id,
      user: user.id,
      userTeam: user.team_id,
    });
    if (refused !== undefined) {
      deps.whisper({ channel: channel.id, user: user.id, team, threadTs }, refused);
      return;
    }
    const place: StartPlace = {
      team,
      channel: channel.id,
      user: user.id,
      threadTs,
      messageTs: message.ts,
    };
    const sealed = deps.seal.seal(place, deps.clock.now());
    await openStartForm(
      client,
      trigger_id,
      place,
      sealed,
      toPlainText(message.text),
      deps.catalogue,
    );
  });

  routes.view(START_FORM_CALLBACK_ID, async ({ ack, body, client, context }) => {
    const form = readStartForm(body, (metadata) => deps.seal.open(metadata, deps.clock.now()));
    if (!form.ok) {
      await ack({ response_action: 'errors', errors: form.errors });
      return;
    }
    const { place, user, prompt, options } = form;
    const refuse = (text: string) => ack({ response_action: 'errors', errors: { prompt: text } });
    // The form is for the workspace it was opened in, submitted from there.
    if ((context.teamId ?? place.team) !== place.team) {
      log.warn({ team: context.teamId }, 'Slack start form submitted from another workspace');
      await refuse(UNREAD);
      return;
    }
    const refused = await deps.refusal({
      team: place.team,
      enterprise: context.enterpriseId,
      channel: place.channel,
      user: user.id,
      userTeam: user.teamId,
    });
    if (refused !== undefined) {
      await refuse(refused);
      return;
    }
    // A direct message is the person's own with the bot; any other conversation must have
    // them in it (its history goes to the run as context).
    if (!place.channel.startsWith('D')) {
      const member = await isMember(client, place.channel, user.id).catch((err: unknown) => {
        log.warn({ err }, 'Slack conversations.members failed; start form refused for now');
        return undefined;
      });
      if (member !== true) {
        await refuse(
          member === undefined
            ? "Sorry, I couldn't check that you're in that conversation. Please try again in a minute."
            : NOT_MEMBER,
        );
        return;
      }
    }
    const viewId = ViewId.parse(body).view.id;
    const threadKey = slackThreadKey(place.team, place.channel, place.threadTs ?? '');
    const optionText = Object.entries(options).map(([k, v]) => `${k}=${v}`);
    const trigger: Trigger = {
      platform: 'slack',
      kind: 'start_form',
      threadKey,
      actor: {
        id: user.id,
        ...(user.name === undefined ? {} : { name: user.name }),
        ...(user.teamId === undefined ? {} : { team: user.teamId }),
      },
      ...(context.enterpriseId === undefined ? {} : { enterprise: context.enterpriseId }),
      text: [...optionText, prompt].join(' '),
      freshRun: true,
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
