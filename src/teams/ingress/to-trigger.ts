/**
 * A verified Teams activity as a neutral Trigger, or the reason it is ignored:
 *
 * - a `message` that mentions the bot in a channel (its thread: the thread's first message)
 *   or a group chat, and any message in a 1:1 chat (a chat is one thread): the words after
 *   the mention, in the same grammar as Slack and GitHub;
 * - the message extension's action on a message ("Send to agent-relay"): that message, with
 *   the person's note, as the prompt of a fresh run in the message's thread;
 * - (card presses are read by `card-action.ts`, which must answer them in place.)
 *
 * Who may is decided here, where the activity says who stands at the door (the allowed
 * tenants were checked with the token): guests and people of other tenants are refused
 * unless TEAMS_ALLOW_GUESTS, then TEAMS_ALLOWED_USERS (Entra object ids) and
 * TEAMS_ALLOWED_CHANNELS, when set; TEAMS_ADMIN_USERS are marked admins. The delivery id is
 * the activity's own id in its conversation, so a redelivery is one trigger.
 */
import { encodeThreadKey, settingsScopeOf } from '../../core/thread-key.js';
import type { Actor, Trigger } from '../../core/trigger.js';
import {
  ExtensionAction,
  mentionsOf,
  splitConversationId,
  tenantOfActivity,
  type Activity,
} from '../api/activity.js';
import { plainTextOf } from './plain-text.js';

export type Interpreted =
  { kind: 'trigger'; trigger: Trigger } | { kind: 'ignored'; reason: string };

export interface TeamsPeopleRules {
  appId: string;
  allowedUsers: readonly string[];
  allowedChannels: readonly string[];
  adminUsers: readonly string[];
  allowGuests: boolean;
}

export interface ToTriggerOptions extends TeamsPeopleRules {
  receivedAt: string;
  maxContextChars: number;
}

/** The message extension's command (manifests/teams/manifest.json). */
export const SEND_TO_AGENT_COMMAND = 'sendToAgent';

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Who is asking, or why they may not: the same rules for messages, presses and actions. */
export function personOf(
  activity: Activity,
  rules: TeamsPeopleRules,
): { actor: Actor } | { refused: string } {
  const { from } = activity;
  const tenant = tenantOfActivity(activity);
  const object = from.aadObjectId?.toLowerCase();
  if (!rules.allowGuests) {
    const role = from.userRole?.toLowerCase();
    if (role === 'guest' || role === 'anonymous') return { refused: 'guest' };
    if (object === undefined) return { refused: 'guest' };
    if (from.tenantId !== undefined && from.tenantId.toLowerCase() !== tenant)
      return { refused: 'external' };
  }
  if (
    rules.allowedUsers.length > 0 &&
    (object === undefined || !rules.allowedUsers.includes(object))
  )
    return { refused: 'person_not_allowed' };
  const { conversation } = splitConversationId(activity.conversation.id);
  if (rules.allowedChannels.length > 0 && !rules.allowedChannels.includes(conversation))
    return { refused: 'channel_not_allowed' };
  const admin = object !== undefined && rules.adminUsers.includes(object);
  return {
    actor: {
      id: from.id,
      ...(from.name ? { name: from.name } : {}),
      ...(admin ? { admin: true } : {}),
    },
  };
}

/** The thread an activity belongs to: a channel thread's root, or the whole chat. */
export function threadOf(activity: Activity): { threadKey: string } | { ignored: string } {
  const tenant = tenantOfActivity(activity);
  if (tenant === undefined) return { ignored: 'no_tenant' };
  const { conversation, root } = splitConversationId(activity.conversation.id);
  const channel = activity.conversation.conversationType === 'channel';
  // A channel message without `;messageid=` is a new post: it is the thread's root.
  const threadRoot = channel ? (root ?? activity.id ?? '') : '';
  if (channel && threadRoot === '') return { ignored: 'no_thread' };
  try {
    return {
      threadKey: encodeThreadKey({ platform: 'teams', tenant, conversation, root: threadRoot }),
    };
  } catch {
    return { ignored: 'malformed_conversation' };
  }
}

function base(
  activity: Activity,
  threadKey: string,
  actor: Actor,
  o: ToTriggerOptions,
): Omit<Trigger, 'kind' | 'text'> {
  const tenant = tenantOfActivity(activity) ?? '';
  const { conversation } = splitConversationId(activity.conversation.id);
  return {
    platform: 'teams',
    threadKey,
    actor,
    addressed: true,
    context: {},
    deliveryId: `teams:${tenant}:${conversation}:${activity.id ?? ''}`,
    receivedAt: o.receivedAt,
    settingsScope: settingsScopeOf(threadKey) ?? threadKey,
  };
}

/** A message: addressed by a mention of the bot (channels, group chats) or by being in a 1:1. */
export function fromMessage(activity: Activity, o: ToTriggerOptions): Interpreted {
  if (activity.id === undefined) return { kind: 'ignored', reason: 'no_id' };
  const bot = activity.recipient?.id ?? `28:${o.appId}`;
  if (activity.from.id === bot) return { kind: 'ignored', reason: 'self' };
  // Only a 1:1 chat needs no mention; a conversation Teams did not name is not taken for one.
  const personal = activity.conversation.conversationType === 'personal';
  const botMentions = mentionsOf(activity).filter(
    (m) => m.mentioned?.id === bot || m.mentioned?.id === `28:${o.appId}`,
  );
  if (!personal && botMentions.length === 0) return { kind: 'ignored', reason: 'not_addressed' };
  const place = threadOf(activity);
  if ('ignored' in place) return { kind: 'ignored', reason: place.ignored };
  const person = personOf(activity, o);
  if ('refused' in person) return { kind: 'ignored', reason: person.refused };
  let raw = activity.text ?? '';
  for (const m of botMentions) if (m.text) raw = raw.split(m.text).join(' ');
  const words = plainTextOf(raw).trim();
  return {
    kind: 'trigger',
    trigger: {
      ...base(activity, place.threadKey, person.actor, o),
      kind: personal ? 'direct_message' : 'mention',
      text: bounded(words === '' ? 'help' : words, o.maxContextChars),
    },
  };
}

/** "Send to agent-relay" on a message: that message (and the person's note) as a fresh run. */
export function fromExtensionAction(activity: Activity, o: ToTriggerOptions): Interpreted {
  const parsed = ExtensionAction.safeParse(activity.value);
  if (!parsed.success) return { kind: 'ignored', reason: 'invalid_action' };
  const action = parsed.data;
  if (action.commandId !== SEND_TO_AGENT_COMMAND)
    return { kind: 'ignored', reason: 'other_command' };
  if (activity.id === undefined) return { kind: 'ignored', reason: 'no_id' };
  const place = threadOf(activity);
  if ('ignored' in place) return { kind: 'ignored', reason: place.ignored };
  const person = personOf(activity, o);
  if ('refused' in person) return { kind: 'ignored', reason: person.refused };
  const message = plainTextOf(action.messagePayload?.body?.content ?? '').trim();
  const note = typeof action.data?.note === 'string' ? action.data.note.trim() : '';
  const author = action.messagePayload?.from?.user?.displayName;
  const quoted = message
    ? `${author ? `${author} wrote:` : 'The message:'}\n${message
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n')}`
    : '';
  const prompt = [note, quoted].filter(Boolean).join('\n\n');
  if (prompt === '') return { kind: 'ignored', reason: 'empty_message' };
  const link = action.messagePayload?.linkToMessage;
  return {
    kind: 'trigger',
    trigger: {
      ...base(activity, place.threadKey, person.actor, o),
      kind: 'message_action',
      text: bounded(prompt, o.maxContextChars),
      freshRun: true,
      ...(link ? { context: { permalink: link } } : {}),
    },
  };
}
