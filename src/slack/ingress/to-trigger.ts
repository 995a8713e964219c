/**
 * Slack events (mentions, messages, DMs) -> neutral Triggers (pure). The listeners decide what
 * to do with the result; nothing here knows about runs.
 */
import { settingsScopeOf } from '../../core/thread-key.js';
import type { Trigger, TriggerKind } from '../../core/trigger.js';
import type { Conversion, ConvertContext, Origin } from './conversion.js';
import { ignore, replyThread } from './conversion.js';
import type { AppMentionEvent, EventEnvelope, MessageEvent } from './payloads.js';
import { messageId, slackThreadKey } from '../api/slack-address.js';
import { mentionsUser, toPlainText, wordsForBot } from '../api/slack-text.js';
import { notPersonsWords } from '../api/persons-words.js';

export type { Conversion, ConvertContext, Origin } from './conversion.js';

function envelopeTeam(envelope: EventEnvelope, fallback?: string): string | undefined {
  return envelope.team_id ?? envelope.authorizations?.[0]?.team_id ?? fallback ?? undefined;
}

interface MessageLike {
  kind: TriggerKind;
  team: string;
  channel: string;
  user: string;
  ts: string;
  threadTs: string;
  text: string;
  deliveryId: string;
  now: number;
}

function messageTrigger(m: MessageLike): Trigger {
  const threadKey = slackThreadKey(m.team, m.channel, m.threadTs);
  return {
    platform: 'slack',
    kind: m.kind,
    threadKey,
    actor: { id: m.user },
    text: m.text,
    addressed: true,
    context: {},
    deliveryId: m.deliveryId,
    receivedAt: new Date(m.now).toISOString(),
    triggerMessage: { threadKey, id: messageId(m.channel, m.ts) },
    settingsScope: settingsScopeOf({
      platform: 'slack',
      team: m.team,
      channel: m.channel,
      threadTs: '',
    }),
  };
}

/**
 * A person's message: where it came from and what every trigger of it carries, or why it is
 * ignored (`notMine`: a reason this kind of event is not the bot's to read, checked once the
 * sender is known).
 */
function personsMessage(
  envelope: EventEnvelope,
  event: AppMentionEvent | MessageEvent,
  ctx: ConvertContext,
  notMine?: string,
): Conversion | { origin: Origin; base: Omit<MessageLike, 'kind' | 'text'> } {
  const notWords = notPersonsWords(event);
  if (notWords !== undefined) return ignore(notWords);
  if (event.user === undefined) return ignore('no user');
  if (event.user === ctx.botUserId) return ignore('own message');
  if (notMine !== undefined) return ignore(notMine);
  const team = ctx.teamId ?? event.team ?? envelopeTeam(envelope);
  if (team === undefined) return ignore('no team');
  const userTeam = event.user_team ?? event.team;
  const origin = {
    channel: event.channel,
    user: event.user,
    ...replyThread(event.ts, event.thread_ts),
    ...(userTeam === undefined ? {} : { userTeam }),
  };
  const base = {
    team,
    channel: event.channel,
    user: event.user,
    ts: event.ts,
    threadTs: event.thread_ts ?? event.ts,
    deliveryId: envelope.event_id,
    now: ctx.now,
  };
  return { origin, base };
}

/** `app_mention`: in a channel or a thread; the mention is stripped from the words. */
export function fromAppMention(
  envelope: EventEnvelope,
  event: AppMentionEvent,
  ctx: ConvertContext,
): Conversion {
  // Direct messages arrive as message.im; handling them once there avoids a second trigger.
  const notMine =
    event.edited !== undefined
      ? 'edited message'
      : event.channel.startsWith('D')
        ? 'direct message (handled as message.im)'
        : undefined;
  const message = personsMessage(envelope, event, ctx, notMine);
  if ('type' in message) return message;
  const trigger = messageTrigger({
    ...message.base,
    kind: 'mention',
    text: wordsForBot(event.text, ctx.botUserId),
  });
  return { type: 'trigger', trigger, ...message.origin };
}

/**
 * `message` (channels, private channels, DMs). DMs are like mentions. In channels, a message
 * that mentions the bot is left to `app_mention`; a plain reply inside a thread may be a
 * follow-up (`thread_reply`), which the listener confirms against the store.
 */
export function fromMessage(
  envelope: EventEnvelope,
  event: MessageEvent,
  ctx: ConvertContext,
): Conversion {
  const message = personsMessage(envelope, event, ctx);
  if ('type' in message) return message;
  const { origin, base } = message;
  if (event.channel_type === 'im') {
    const trigger = messageTrigger({
      ...base,
      kind: 'direct_message',
      text: wordsForBot(event.text, ctx.botUserId),
    });
    return { type: 'trigger', trigger, ...origin };
  }
  if (ctx.botUserId !== undefined && mentionsUser(event.text, ctx.botUserId)) {
    return ignore('mentions the bot (handled as app_mention)');
  }
  if (origin.threadTs === undefined) return ignore('not addressed to the bot');
  const trigger = messageTrigger({
    ...base,
    kind: 'thread_reply',
    text: toPlainText(event.text).trim(),
  });
  return { type: 'thread_reply', trigger, ...origin };
}
