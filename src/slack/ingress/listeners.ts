/**
 * The Bolt listeners: each validates its payload, turns it into a Trigger (to-trigger.ts),
 * applies the allowlists, hands it to the sink and then acknowledges. No run logic here, and
 * no call to Slack about the person: the runs ask who they are after the acknowledgement.
 */
import type { z } from 'zod';
import type { SlackRoutes } from '../api/routes.js';
import type { Catalogue, Clock, Logger, TriggerSink } from '../../core/ports/index.js';
import type { Trigger, TriggerContext } from '../../core/trigger.js';
import { RelayError } from '../../core/relay-error.js';
import { decodeThreadKey } from '../../core/thread-key.js';
import { slackErrorName } from '../api/delivery-errors.js';
import { openStartForm } from '../shortcut/start-form-listeners.js';
import type { StartFormSeal } from '../shortcut/start-form-seal.js';
import type { Admission, Admit } from './access.js';
import { refusalText } from './access.js';
import {
  CANCEL_ACTION_ID,
  OPEN_SESSION_ACTION_ID,
  STATUS_ACTION_ID,
  STOP_ACTION_ID,
} from '../api/action-ids.js';
import type { IdentityResolver } from '../api/identity.js';
import {
  AppMentionEvent,
  BlockActions,
  ButtonAction,
  EventEnvelope,
  MessageEvent,
  RunId,
  SlashCommand,
} from './payloads.js';
import type { Conversion, ConvertContext, Origin } from './conversion.js';
import { fromAppMention, fromMessage } from './to-trigger.js';
import { AgentSessionStoppedEvent, fromSessionStopped } from './to-trigger-session.js';
import { AppContextChangedEvent, createViewedChannels } from './viewed-channels.js';
import { ASKS_ABOUT_CHANNEL } from '../api/asks-about-channel.js';
import { fromRunButton, fromSlashCommand, slashAcknowledgement } from './to-trigger-interactive.js';
import { registerReviewListeners } from './review-listeners.js';

/** Tell one person something only they see (refusals); best effort, never blocks the ack. */
export type Whisper = (
  to: { channel: string; user: string; threadTs?: string; team?: string },
  text: string,
) => void;

export interface ListenerDeps {
  sink: TriggerSink;
  /** The service's environments and models, offered in the start form. */
  catalogue?: Catalogue;
  logger: Logger;
  clock: Clock;
  /** The allowlists (who the person is, the runs ask after the acknowledgement). */
  admit: Admit;
  commandName: string;
  /** Seals the start form's metadata (the slash command alone opens the form). */
  startFormSeal: StartFormSeal;
  replyInThreadWithoutMention: boolean;
  identity: IdentityResolver;
  /** Any number of workspaces: who the bot is comes with each event (Bolt's authorize). */
  perEventIdentity?: boolean;
  /** Fixed team id for thread keys (configuration); else auth.test's, else the payload's. */
  teamId?: string;
  whisper: Whisper;
}

export class BotIdentityUnavailableError extends RelayError<'slack_identity_unavailable'> {
  override readonly name = 'BotIdentityUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('slack_identity_unavailable', message, options);
  }
}

function origin(o: Origin & { trigger?: Trigger }): Origin & { team?: string } {
  const team = o.trigger === undefined ? undefined : decodeThreadKey(o.trigger.threadKey);
  return {
    channel: o.channel,
    user: o.user,
    ...(o.threadTs === undefined ? {} : { threadTs: o.threadTs }),
    ...(team?.platform === 'slack' ? { team: team.team } : {}),
  };
}

/** What Bolt's authorize said about this event's workspace. */
export interface EventAuth {
  botUserId?: string | undefined;
  /** The workspace the event came to (not a shared channel's other side). */
  teamId?: string | undefined;
  /** Its Enterprise Grid organisation. */
  enterpriseId?: string | undefined;
}

const BUSY = "Sorry, I couldn't take that request right now. Please try again in a minute.";

/** What the other Slack surfaces hand back to the ingress (the agent pane's messages). */
export interface Listeners {
  /** A message event, as the `message` listener takes it, with extra context for its run. */
  handleMessage(
    body: unknown,
    event: unknown,
    auth: EventAuth | undefined,
    extra?: Partial<TriggerContext>,
  ): Promise<void>;
}

export function registerListeners(routes: SlackRoutes, deps: ListenerDeps): Listeners {
  const log = deps.logger.child({ component: 'slack-listeners' });

  async function context(auth?: EventAuth): Promise<ConvertContext> {
    if (deps.perEventIdentity) {
      return {
        now: deps.clock.now(),
        ...(auth?.botUserId === undefined ? {} : { botUserId: auth.botUserId }),
        ...(auth?.teamId === undefined ? {} : { teamId: auth.teamId }),
      };
    }
    const id = await deps.identity.resolve().catch(() => deps.identity.known());
    const teamId = deps.teamId ?? id.teamId;
    return {
      now: deps.clock.now(),
      ...(id.botUserId === undefined ? {} : { botUserId: id.botUserId }),
      ...(teamId === undefined ? {} : { teamId }),
    };
  }

  /**
   * The allowlists (the configuration, no call to Slack). The trigger carries what the
   * payload said of the person (their own workspace, the organisation), for the runs' access
   * check to ask Slack after the acknowledgement.
   */
  async function admitted(
    conv: Extract<Conversion, { trigger: Trigger }>,
    auth: EventAuth | undefined,
  ): Promise<Admission> {
    const address = decodeThreadKey(conv.trigger.threadKey);
    const verdict = await deps.admit({
      team: address?.platform === 'slack' ? address.team : '',
      enterprise: auth?.enterpriseId,
      channel: conv.channel,
      user: conv.user,
      userTeam: conv.userTeam,
    });
    conv.trigger = {
      ...conv.trigger,
      actor: {
        ...conv.trigger.actor,
        ...(conv.userTeam === undefined ? {} : { team: conv.userTeam }),
      },
      ...(auth?.enterpriseId === undefined ? {} : { enterprise: auth.enterpriseId }),
    };
    return verdict;
  }

  async function accept(trigger: Trigger): Promise<void> {
    const result = await deps.sink.accept(trigger);
    log.info(
      { deliveryId: trigger.deliveryId, threadKey: trigger.threadKey, kind: trigger.kind, result },
      result === 'accepted' ? 'Slack trigger accepted' : 'Slack trigger was a duplicate',
    );
  }

  /** Events: refused when addressed (mentions, DMs), silently ignored for plain replies. */
  async function handleEvent(conv: Conversion, auth: EventAuth | undefined): Promise<void> {
    if (conv.type === 'ignore') {
      log.debug({ reason: conv.reason }, 'Slack event ignored');
      return;
    }
    const { trigger } = conv;
    if (conv.type === 'thread_reply') {
      if (!deps.replyInThreadWithoutMention) return;
      if (!(await deps.sink.threadHasRun(trigger.threadKey))) return;
      // A plain reply of someone who may not use the bot here never reaches the run.
      const verdict = await admitted(conv, auth);
      if (!verdict.ok) {
        log.info({ deliveryId: trigger.deliveryId, denial: verdict.denial }, 'Slack reply ignored');
        return;
      }
    } else {
      const verdict = await admitted(conv, auth);
      if (!verdict.ok) {
        log.info(
          { deliveryId: trigger.deliveryId, denial: verdict.denial },
          'Slack trigger refused',
        );
        deps.whisper(origin(conv), refusalText(verdict.denial));
        return;
      }
    }
    await accept(conv.trigger);
  }

  /** An event's envelope and payload; undefined, logged at `level`, when not understood. */
  function parsed<E>(
    body: unknown,
    event: unknown,
    schema: z.ZodType<E>,
    level: 'warn' | 'debug',
    said: string,
  ): { envelope: EventEnvelope; event: E } | undefined {
    const envelope = EventEnvelope.safeParse(body);
    const payload = schema.safeParse(event);
    if (envelope.success && payload.success)
      return { envelope: envelope.data, event: payload.data };
    log[level]({}, said);
    return undefined;
  }

  /** An event converted and handled; a payload not understood is logged and ignored. */
  function onEvent<E>(
    type: 'app_mention' | 'agent_session_stopped',
    schema: z.ZodType<E>,
    convert: (envelope: EventEnvelope, event: E, ctx: ConvertContext) => Conversion,
  ): void {
    routes.event(type, async ({ body, event, context: auth }) => {
      const got = parsed(
        body,
        event,
        schema,
        'warn',
        `Slack ${type} payload not understood; ignored`,
      );
      if (got) await handleEvent(convert(got.envelope, got.event, await context(auth)), auth);
    });
  }
  onEvent('app_mention', AppMentionEvent, fromAppMention);
  // Stop in a thread's agent session: the runs use case decides who may stop the run.
  onEvent('agent_session_stopped', AgentSessionStoppedEvent, fromSessionStopped);

  /** Whether the log already said that channel messages come in unused. */
  let toldChannelMessages = false;

  async function handleMessage(
    body: unknown,
    event: unknown,
    auth: EventAuth | undefined,
    extra?: Partial<TriggerContext>,
  ): Promise<void> {
    const said = 'Slack message payload not understood (or an edit/deletion); ignored';
    const message = parsed(body, event, MessageEvent, 'debug', said);
    if (!message) return;
    const ctx = await context(auth);
    const inChannel = message.event.channel_type !== 'im';
    if (inChannel && !deps.replyInThreadWithoutMention && !toldChannelMessages) {
      // Slack counts every event it delivers against its 30,000 an hour per workspace.
      toldChannelMessages = true;
      log.info(
        { channelType: message.event.channel_type },
        'Slack sends channel messages (message.channels / message.groups) that agent-relay ' +
          'ignores while SLACK_REPLY_WITHOUT_MENTION is off; remove those events from the ' +
          "app's Event Subscriptions (they count against Slack's events per hour)",
      );
    }
    if (inChannel && deps.replyInThreadWithoutMention && ctx.botUserId === undefined) {
      // Without our user id a mention cannot be told from a plain reply; Slack will retry.
      throw new BotIdentityUnavailableError('the bot user id is unknown (auth.test failed)');
    }
    const conv = fromMessage(message.envelope, message.event, ctx);
    if (extra !== undefined && conv.type !== 'ignore')
      conv.trigger = { ...conv.trigger, context: { ...conv.trigger.context, ...extra } };
    await handleEvent(conv, auth);
  }

  // The agent view: the channel the person is looking at, for "this channel" in the pane.
  const viewed = createViewedChannels();
  routes.event('app_context_changed', async ({ body, event, context: auth }) => {
    const said = 'Slack app_context_changed payload not understood; ignored';
    const changed = parsed(body, event, AppContextChangedEvent, 'debug', said);
    if (!changed) return;
    const ctx = await context(auth);
    const team = ctx.teamId ?? changed.envelope.team_id;
    if (team !== undefined) viewed.seen(team, changed.event);
  });

  routes.event('message', async ({ body, event, context: auth }) => {
    const im = MessageEvent.safeParse(event);
    if (im.success && im.data.channel_type === 'im' && ASKS_ABOUT_CHANNEL.test(im.data.text)) {
      const team = (await context(auth)).teamId ?? EventEnvelope.safeParse(body).data?.team_id;
      const channel =
        team === undefined || im.data.user === undefined
          ? undefined
          : viewed.get(team, im.data.user);
      if (channel !== undefined) {
        await handleMessage(body, event, auth, { viewingChannel: { id: channel } });
        return;
      }
    }
    await handleMessage(body, event, auth);
  });

  routes.command(deps.commandName, async ({ body, ack, client, context: auth }) => {
    const command = SlashCommand.safeParse(body);
    if (!command.success) {
      await ack({ response_type: 'ephemeral', text: "Sorry, I couldn't read that command." });
      return;
    }
    const conv = fromSlashCommand(command.data, await context(auth));
    if (conv.type === 'ignore') return ack();
    const verdict = await admitted(conv, auth);
    if (!verdict.ok) {
      log.info(
        { deliveryId: conv.trigger.deliveryId, denial: verdict.denial },
        'Slack command refused',
      );
      await ack({ response_type: 'ephemeral', text: refusalText(verdict.denial) });
      return;
    }
    if (command.data.text.trim() === '') {
      // The command alone opens the start form (`help` still answers with the help).
      await ack();
      const team = decodeThreadKey(conv.trigger.threadKey);
      if (team?.platform !== 'slack') return;
      const place = {
        team: team.team,
        channel: command.data.channel_id,
        user: command.data.user_id,
      };
      const sealed = deps.startFormSeal.seal(place, deps.clock.now());
      const opening = openStartForm(
        client,
        command.data.trigger_id,
        place,
        sealed,
        '',
        deps.catalogue,
      );
      await opening.catch((err: unknown) =>
        log.warn({ err, slackError: slackErrorName(err) }, 'Slack start form not opened'),
      );
      return;
    }
    try {
      await accept(conv.trigger);
    } catch (err) {
      log.error({ err, deliveryId: conv.trigger.deliveryId }, 'Slack command could not be queued');
      await ack({ response_type: 'ephemeral', text: BUSY });
      return;
    }
    // The private acknowledgement rides on the HTTP answer: no Web API call, no membership.
    const text = slashAcknowledgement(conv.trigger, conv.channel);
    await ack(text === undefined ? undefined : { response_type: 'ephemeral', text });
  });

  const runButtons = [
    [CANCEL_ACTION_ID, 'cancel'],
    [STOP_ACTION_ID, 'stop'],
    [STATUS_ACTION_ID, 'status'],
  ] as const;
  for (const [actionId, which] of runButtons)
    routes.action(actionId, async ({ body, action, ack, context: auth }) => {
      const payload = BlockActions.safeParse(body);
      const button = ButtonAction.safeParse(action);
      const runId = RunId.safeParse(button.data?.value);
      if (!payload.success || !button.success || !runId.success) {
        log.warn({ which }, 'Slack run button payload not understood; ignored');
        return ack();
      }
      const conv = fromRunButton(
        payload.data,
        {
          runId: runId.data,
          ...(button.data.action_ts ? { actionTs: button.data.action_ts } : {}),
        },
        await context(auth),
        which,
      );
      if (conv.type === 'ignore') return ack();
      const where = origin(conv);
      const verdict = await admitted(conv, auth);
      if (!verdict.ok) {
        await ack();
        deps.whisper(where, refusalText(verdict.denial));
        return;
      }
      try {
        await accept(conv.trigger);
      } catch (err) {
        log.error(
          { err, deliveryId: conv.trigger.deliveryId },
          'Slack run button could not be queued',
        );
        await ack();
        deps.whisper(where, BUSY);
        return;
      }
      await ack();
    });

  registerReviewListeners(routes, {
    log,
    context,
    admitted,
    accept,
    whisper: deps.whisper,
  });

  // A link button still sends an interaction, which must be acknowledged.
  routes.action(OPEN_SESSION_ACTION_ID, async ({ ack }) => {
    await ack();
  });
  return { handleMessage };
}
