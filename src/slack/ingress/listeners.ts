/**
 * The Bolt listeners: each validates its payload, turns it into a Trigger (to-trigger.ts),
 * applies the allowlists, hands it to the sink and then acknowledges. No run logic here.
 */
import type { App } from '@slack/bolt';
import type { Clock, Logger, TriggerSink } from '../../core/ports/index.js';
import type { Trigger } from '../../core/trigger.js';
import { RelayError } from '../../core/relay-error.js';
import type { Allowlists } from './access.js';
import { checkAccess, refusalText } from './access.js';
import { CANCEL_ACTION_ID, OPEN_SESSION_ACTION_ID } from '../api/action-ids.js';
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
import {
  fromCancelButton,
  fromSlashCommand,
  slashAcknowledgement,
} from './to-trigger-interactive.js';

/** Tell one person something only they see (refusals); best effort, never blocks the ack. */
export type Whisper = (
  to: { channel: string; user: string; threadTs?: string },
  text: string,
) => void;

export interface ListenerDeps {
  sink: TriggerSink;
  logger: Logger;
  clock: Clock;
  allowlists: Allowlists;
  commandName: string;
  replyInThreadWithoutMention: boolean;
  identity: IdentityResolver;
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

function origin(o: Origin): Origin {
  return {
    channel: o.channel,
    user: o.user,
    ...(o.threadTs === undefined ? {} : { threadTs: o.threadTs }),
  };
}

const BUSY = "Sorry, I couldn't take that request right now. Please try again in a minute.";

export function registerListeners(app: App, deps: ListenerDeps): void {
  const log = deps.logger.child({ component: 'slack-listeners' });

  async function context(): Promise<ConvertContext> {
    const id = await deps.identity.resolve().catch(() => deps.identity.known());
    const teamId = deps.teamId ?? id.teamId;
    return {
      now: deps.clock.now(),
      ...(id.botUserId === undefined ? {} : { botUserId: id.botUserId }),
      ...(teamId === undefined ? {} : { teamId }),
    };
  }

  async function accept(trigger: Trigger): Promise<void> {
    const result = await deps.sink.accept(trigger);
    log.info(
      { deliveryId: trigger.deliveryId, threadKey: trigger.threadKey, kind: trigger.kind, result },
      result === 'accepted' ? 'Slack trigger accepted' : 'Slack trigger was a duplicate',
    );
  }

  /** Events: refused when addressed (mentions, DMs), silently ignored for plain replies. */
  async function handleEvent(conv: Conversion): Promise<void> {
    if (conv.type === 'ignore') {
      log.debug({ reason: conv.reason }, 'Slack event ignored');
      return;
    }
    const { trigger } = conv;
    const denial = checkAccess(deps.allowlists, conv);
    if (conv.type === 'thread_reply') {
      if (!deps.replyInThreadWithoutMention || denial !== undefined) return;
      if (!(await deps.sink.threadHasRun(trigger.threadKey))) return;
    } else if (denial !== undefined) {
      log.info({ deliveryId: trigger.deliveryId, denial }, 'Slack trigger refused by allowlist');
      deps.whisper(origin(conv), refusalText(denial));
      return;
    }
    await accept(trigger);
  }

  app.event('app_mention', async ({ body, event }) => {
    const envelope = EventEnvelope.safeParse(body);
    const mention = AppMentionEvent.safeParse(event);
    if (!envelope.success || !mention.success) {
      log.warn({}, 'Slack app_mention payload not understood; ignored');
      return;
    }
    await handleEvent(fromAppMention(envelope.data, mention.data, await context()));
  });

  app.event('message', async ({ body, event }) => {
    const envelope = EventEnvelope.safeParse(body);
    const message = MessageEvent.safeParse(event);
    if (!envelope.success || !message.success) {
      log.debug({}, 'Slack message payload not understood (or an edit/deletion); ignored');
      return;
    }
    const ctx = await context();
    const inChannel = message.data.channel_type !== 'im';
    if (inChannel && deps.replyInThreadWithoutMention && ctx.botUserId === undefined) {
      // Without our user id a mention cannot be told from a plain reply; Slack will retry.
      throw new BotIdentityUnavailableError('the bot user id is unknown (auth.test failed)');
    }
    await handleEvent(fromMessage(envelope.data, message.data, ctx));
  });

  app.command(deps.commandName, async ({ body, ack }) => {
    const command = SlashCommand.safeParse(body);
    if (!command.success) {
      await ack({ response_type: 'ephemeral', text: "Sorry, I couldn't read that command." });
      return;
    }
    const conv = fromSlashCommand(command.data, await context());
    if (conv.type === 'ignore') return ack();
    const denial = checkAccess(deps.allowlists, conv);
    if (denial !== undefined) {
      log.info(
        { deliveryId: conv.trigger.deliveryId, denial },
        'Slack command refused by allowlist',
      );
      await ack({ response_type: 'ephemeral', text: refusalText(denial) });
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

  app.action(CANCEL_ACTION_ID, async ({ body, action, ack }) => {
    const payload = BlockActions.safeParse(body);
    const button = ButtonAction.safeParse(action);
    const runId = RunId.safeParse(button.data?.value);
    if (!payload.success || !button.success || !runId.success) {
      log.warn({}, 'Slack Cancel button payload not understood; ignored');
      return ack();
    }
    const conv = fromCancelButton(
      payload.data,
      { runId: runId.data, ...(button.data.action_ts ? { actionTs: button.data.action_ts } : {}) },
      await context(),
    );
    if (conv.type === 'ignore') return ack();
    const where = origin(conv);
    const denial = checkAccess(deps.allowlists, conv);
    if (denial !== undefined) {
      await ack();
      deps.whisper(where, refusalText(denial));
      return;
    }
    try {
      await accept(conv.trigger);
    } catch (err) {
      log.error({ err, deliveryId: conv.trigger.deliveryId }, 'Slack Cancel could not be queued');
      await ack();
      deps.whisper(where, BUSY);
      return;
    }
    await ack();
  });

  // A link button still sends an interaction, which must be acknowledged.
  app.action(OPEN_SESSION_ACTION_ID, async ({ ack }) => {
    await ack();
  });
}
