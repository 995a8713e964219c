/**
 * A local stand-in for Slack's Web API (the methods agent-relay calls), on loopback. It keeps
 * each channel's messages as a person would see them: posts, in-place edits, reactions and
 * ephemeral replies, and tells a listener about every change (the demo prints them live).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  user: string;
  text: string;
  blocks?: unknown[];
  reactions: string[];
  edits: number;
  /** Ephemeral: only this user sees it. */
  onlyFor?: string;
  bot: boolean;
}

export type SlackChange =
  | { kind: 'post' | 'update'; message: SlackMessage }
  | { kind: 'react'; message: SlackMessage; reaction: string };

export interface FakeSlack {
  /** Web API base, e.g. `http://127.0.0.1:PORT/api/`. */
  apiUrl: string;
  botToken: string;
  botUserId: string;
  teamId: string;
  messages(channel: string): SlackMessage[];
  /** The thread rooted at `ts` (the root first). */
  thread(channel: string, ts: string): SlackMessage[];
  /** A person writes in a channel (what the Events API then reports). */
  say(channel: string, user: string, text: string, threadTs?: string): SlackMessage;
  onChange(listener: (change: SlackChange) => void): void;
  calls(): { method: string; params: Record<string, unknown> }[];
  close(): Promise<void>;
}

export async function startFakeSlack(
  options: { botToken?: string; botUserId?: string; teamId?: string } = {},
): Promise<FakeSlack> {
  const botToken = options.botToken ?? 'xoxb-demo-token';
  const botUserId = options.botUserId ?? 'URELAYBOT';
  const teamId = options.teamId ?? 'TDEMO';
  const byChannel = new Map<string, SlackMessage[]>();
  const listeners: ((change: SlackChange) => void)[] = [];
  const calls: { method: string; params: Record<string, unknown> }[] = [];
  let seq = 0;
  const nextTs = () =>
    `${1_700_000_000 + Math.floor(seq / 1000)}.${String(++seq).padStart(6, '0')}`;
  const list = (channel: string) =>
    byChannel.get(channel) ?? byChannel.set(channel, []).get(channel)!;
  const find = (channel: string, ts: string) => list(channel).find((m) => m.ts === ts);
  const emit = (change: SlackChange) => listeners.forEach((l) => l(change));

  function add(message: Omit<SlackMessage, 'ts' | 'reactions' | 'edits'>): SlackMessage {
    const full: SlackMessage = { ...message, ts: nextTs(), reactions: [], edits: 0 };
    list(message.channel).push(full);
    return full;
  }

  const methods: Record<string, (p: Record<string, unknown>) => Record<string, unknown>> = {
    'auth.test': () => ({
      url: 'https://demo.slack.test/',
      team: 'Demo',
      team_id: teamId,
      user: 'agent-relay',
      user_id: botUserId,
      bot_id: 'BRELAY',
    }),
    'chat.postMessage': (p) => {
      const m = add({
        channel: str(p.channel),
        threadTs: opt(p.thread_ts),
        user: botUserId,
        text: str(p.text),
        blocks: arr(p.blocks),
        bot: true,
      });
      emit({ kind: 'post', message: m });
      return { channel: m.channel, ts: m.ts, message: { text: m.text, ts: m.ts } };
    },
    'chat.postEphemeral': (p) => {
      const m = add({
        channel: str(p.channel),
        threadTs: opt(p.thread_ts),
        user: botUserId,
        text: str(p.text),
        blocks: arr(p.blocks),
        onlyFor: str(p.user),
        bot: true,
      });
      emit({ kind: 'post', message: m });
      return { message_ts: m.ts };
    },
    'chat.update': (p) => {
      const m = find(str(p.channel), str(p.ts));
      if (!m) return { ok: false, error: 'message_not_found' };
      m.text = str(p.text);
      m.blocks = arr(p.blocks);
      m.edits += 1;
      emit({ kind: 'update', message: m });
      return { channel: m.channel, ts: m.ts, text: m.text };
    },
    'reactions.add': (p) => {
      const m = find(str(p.channel), str(p.timestamp));
      if (!m) return { ok: false, error: 'message_not_found' };
      const name = str(p.name);
      if (m.reactions.includes(name)) return { ok: false, error: 'already_reacted' };
      m.reactions.push(name);
      emit({ kind: 'react', message: m, reaction: name });
      return {};
    },
    'conversations.replies': (p) => {
      const root = str(p.ts);
      const messages = list(str(p.channel)).filter(
        (m) => !m.onlyFor && (m.ts === root || m.threadTs === root),
      );
      return {
        messages: messages.map((m) => ({
          type: 'message',
          user: m.user,
          text: m.text,
          ts: m.ts,
          thread_ts: m.threadTs ?? root,
          ...(m.bot ? { bot_id: 'BRELAY' } : {}),
        })),
        has_more: false,
      };
    },
    'chat.getPermalink': (p) => ({
      permalink: `https://demo.slack.test/archives/${str(p.channel)}/p${str(p.message_ts).replace('.', '')}`,
    }),
    'users.info': (p) => ({
      user: { id: str(p.user), name: str(p.user).toLowerCase(), real_name: str(p.user) },
    }),
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
      const params = parseParams(
        Buffer.concat(chunks).toString('utf8'),
        req.headers['content-type'],
      );
      calls.push({ method, params });
      const auth = req.headers.authorization ?? `Bearer ${str(params.token)}`;
      const handler = methods[method];
      const body =
        auth !== `Bearer ${botToken}`
          ? { ok: false, error: 'invalid_auth' }
          : handler
            ? { ok: true, ...handler(params) }
            : { ok: false, error: 'unknown_method' };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    botToken,
    botUserId,
    teamId,
    messages: (channel) => [...list(channel)],
    thread: (channel, ts) => list(channel).filter((m) => m.ts === ts || m.threadTs === ts),
    say: (channel, user, text, threadTs) => add({ channel, user, text, threadTs, bot: false }),
    onChange: (listener) => void listeners.push(listener),
    calls: () => [...calls],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function parseParams(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (raw === '') return {};
  if (contentType?.includes('application/json')) return JSON.parse(raw) as Record<string, unknown>;
  const params: Record<string, unknown> = Object.fromEntries(new URLSearchParams(raw));
  for (const key of ['blocks', 'attachments']) {
    if (typeof params[key] === 'string') params[key] = JSON.parse(params[key] as string) as unknown;
  }
  return params;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : String(v));
const opt = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const arr = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);
