/**
 * The Web API methods the fake Slack answers, as Slack answers them: chat.postMessage,
 * chat.update, chat.postEphemeral, reactions.add and .remove, conversations.replies and .history,
 * auth.test, views.open/publish/update, assistant.threads.setStatus/setSuggestedPrompts/setTitle,
 * apps.connections.open, chat.getPermalink and users.info (oauth.v2.access: slack-web-api.ts).
 */
import { compareTs } from './slack-messages.js';
import type { SlackStore } from './slack-messages.js';

export interface FakeIdentity {
  user_id: string;
  bot_id: string;
  team_id: string;
  /** The bot's name. */
  user: string;
  /** The workspace's name and address. */
  team: string;
  url: string;
  enterprise_id?: string;
}

export interface SlackMethodContext {
  store: SlackStore;
  identity: FakeIdentity;
  /** Channel -> its members (users.conversations, conversations.members). */
  members: Map<string, Set<string>>;
  /** What users.info adds to a person's id (role, guest, home team). */
  people?: ReadonlyMap<string, object>;
  /** What apps.connections.open answers, if Socket Mode is on. */
  socketUrl(): string | undefined;
  /** Channels the bot is not a member of: what it would do there answers `not_in_channel`. */
  outside: ReadonlySet<string>;
  /** Guests (users.info: `is_restricted`). */
  guests?: ReadonlySet<string>;
  /** Private channels (conversations.info: `is_private`). */
  privateChannels?: ReadonlySet<string>;
}

/** Methods that need the bot in the channel. */
const MEMBER_METHODS = new Set([
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  'reactions.add',
  'conversations.replies',
  'conversations.history',
]);

type Answer = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function isMetadata(v: unknown): v is { event_type: string } {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { event_type?: unknown }).event_type === 'string'
  );
}

/** The fields of a message the bot posts (chat.postMessage, chat.postEphemeral). */
export function botMessage(ctx: SlackMethodContext, channel: string, p: Record<string, unknown>) {
  return {
    channel,
    text: str(p.text) ?? '',
    user: ctx.identity.user_id,
    bot_id: ctx.identity.bot_id,
    ...(Array.isArray(p.blocks) ? { blocks: p.blocks } : {}),
    ...(str(p.thread_ts) ? { thread_ts: str(p.thread_ts) } : {}),
  };
}

/**
 * One page of a conversations.replies/history answer, as Slack pages them: at most `limit`
 * messages (Slack's default 100, at most 1000), and an opaque `next_cursor` while more remain.
 */
function page(messages: unknown[], p: Record<string, unknown>): Answer {
  const asked = Number(p.limit);
  const limit = Number.isInteger(asked) && asked > 0 ? Math.min(asked, 1000) : 100;
  const cursor = typeof p.cursor === 'string' ? p.cursor : '';
  const from = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'))?.[1];
  const start = from === undefined ? 0 : Number(from);
  const slice = messages.slice(start, start + limit);
  const more = start + limit < messages.length;
  return {
    ok: true,
    messages: slice,
    has_more: more,
    response_metadata: {
      next_cursor: more ? Buffer.from(`offset:${start + limit}`).toString('base64') : '',
    },
  };
}

export function answerSlackMethod(
  ctx: SlackMethodContext,
  method: string,
  p: Record<string, unknown>,
): Answer {
  const { store, identity } = ctx;
  const channel = str(p.channel) ?? '';
  if (MEMBER_METHODS.has(method) && ctx.outside.has(channel)) {
    return { ok: false, error: 'not_in_channel' };
  }
  switch (method) {
    case 'auth.test':
      return { ok: true, ...identity };
    case 'chat.postMessage': {
      if (channel === '') return { ok: false, error: 'channel_not_found' };
      const m = store.add({
        ...botMessage(ctx, channel, p),
        ...(isMetadata(p.metadata) ? { metadata: p.metadata } : {}),
      });
      store.emit({ kind: 'post', message: m });
      const { history: _h, reactions: _r, ...posted } = m;
      return { ok: true, channel, ts: m.ts, message: posted };
    }
    case 'chat.update': {
      const m = store.find(channel, str(p.ts) ?? '');
      if (m === undefined) return { ok: false, error: 'message_not_found' };
      m.text = str(p.text) ?? m.text;
      if (Array.isArray(p.blocks)) m.blocks = p.blocks;
      if (isMetadata(p.metadata)) m.metadata = p.metadata;
      m.history.push({ text: m.text, ...(m.blocks ? { blocks: m.blocks } : {}) });
      store.emit({ kind: 'update', message: m });
      return { ok: true, channel, ts: m.ts, text: m.text };
    }
    case 'chat.postEphemeral': {
      const m = store.add({ ...botMessage(ctx, channel, p), onlyFor: str(p.user) ?? '' });
      store.emit({ kind: 'post', message: m });
      return { ok: true, message_ts: m.ts };
    }
    case 'reactions.add': {
      const ts = str(p.timestamp) ?? '';
      // A message the fake was not told of (someone spoke before the test began) is real too.
      const m = store.find(channel, ts) ?? store.add({ channel, ts, text: '' });
      const name = str(p.name) ?? '';
      if (m.reactions.includes(name)) return { ok: false, error: 'already_reacted' };
      m.reactions.push(name);
      store.emit({ kind: 'react', message: m, reaction: name });
      return { ok: true };
    }
    case 'reactions.remove': {
      const m = store.find(channel, str(p.timestamp) ?? '');
      if (m === undefined) return { ok: false, error: 'message_not_found' };
      const name = str(p.name) ?? '';
      const at = m.reactions.indexOf(name);
      if (at < 0) return { ok: false, error: 'no_reaction' };
      m.reactions.splice(at, 1);
      store.emit({ kind: 'unreact', message: m, reaction: name });
      return { ok: true };
    }
    case 'conversations.replies': {
      const thread = store.thread(channel, str(p.ts) ?? '').filter((m) => m.onlyFor === undefined);
      if (thread.length === 0) return { ok: false, error: 'thread_not_found' };
      return page(store.listed(thread, p), p);
    }
    case 'conversations.history': {
      // Top-level messages (and thread parents), newest first, as Slack lists them.
      const top = store.messages
        .filter((m) => m.channel === channel && (!m.thread_ts || m.thread_ts === m.ts))
        .sort((a, b) => compareTs(b.ts, a.ts));
      return page(store.listed(top, p), p);
    }
    case 'views.open':
    case 'views.publish':
    case 'views.update': {
      const view = typeof p.view === 'object' && p.view !== null ? p.view : {};
      return { ok: true, view: { id: str(p.view_id) ?? 'V0000001', ...view } };
    }
    case 'assistant.threads.setStatus':
    case 'assistant.threads.setTitle':
      return str(p.channel_id) === undefined || str(p.thread_ts) === undefined
        ? { ok: false, error: 'invalid_arguments' }
        : { ok: true };
    // `thread_ts` is optional here (the Web API's own argument types): under `agent_view`
    // (Slack's agent messaging guide) prompts without one sit at the top of the app's
    // Messages tab rather than in one thread.
    case 'assistant.threads.setSuggestedPrompts':
      return str(p.channel_id) === undefined || !Array.isArray(p.prompts)
        ? { ok: false, error: 'invalid_arguments' }
        : { ok: true };
    case 'apps.connections.open': {
      const url = ctx.socketUrl();
      return url === undefined ? { ok: false, error: 'invalid_auth' } : { ok: true, url };
    }
    case 'chat.getPermalink':
      return {
        ok: true,
        channel,
        permalink: `${identity.url}archives/${channel}/p${(str(p.message_ts) ?? '').replace('.', '')}`,
      };
    case 'users.conversations': {
      const user = str(p.user) ?? '';
      const channels = [...ctx.members]
        .filter(([, who]) => who.has(user))
        .map(([id]) => ({ id, is_member: true }));
      return { ok: true, channels, response_metadata: { next_cursor: '' } };
    }
    case 'users.info': {
      const id = str(p.user) ?? '';
      const person = ctx.people?.get(id) ?? {};
      return {
        ok: true,
        user: {
          id,
          team_id: identity.team_id,
          name: id.toLowerCase(),
          real_name: id,
          is_admin: false,
          is_owner: false,
          is_primary_owner: false,
          is_restricted: ctx.guests?.has(id) === true,
          is_ultra_restricted: false,
          is_bot: false,
          ...person,
        },
      };
    }
    case 'conversations.members': {
      const who = ctx.members.get(channel);
      if (who === undefined && ctx.outside.has(channel))
        return { ok: false, error: 'channel_not_found' };
      return { ok: true, members: [...(who ?? [])], response_metadata: { next_cursor: '' } };
    }
    case 'conversations.info': {
      const id = str(p.channel) ?? '';
      const isPrivate = ctx.privateChannels?.has(id) === true;
      return {
        ok: true,
        channel: { id, is_channel: !isPrivate, is_private: isPrivate, is_im: id.startsWith('D') },
      };
    }
    default:
      return { ok: false, error: 'unknown_method' };
  }
}
