/**
 * A small fake of Slack's Web API on loopback: records every call to `/api/<method>` (form or
 * JSON bodies, as the WebClient sends them), keeps the messages it was asked to post so that
 * chat.update and conversations.replies behave like Slack, and can be told to fail the next
 * calls of a method (429 with Retry-After, a Slack error, HTTP 500).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  /** The bearer token the call carried. */
  token?: string;
  /** HTTP status the fake answered. */
  status: number;
  /** Slack's `error` when the fake answered ok:false. */
  error?: string;
  at: number;
}

export interface FakeMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  blocks?: unknown[];
  user?: string;
  bot_id?: string;
  subtype?: string;
  /** Message metadata (chat.postMessage `metadata`), returned with `include_all_metadata`. */
  metadata?: { event_type: string; event_payload?: Record<string, unknown> };
  /** Every text/blocks this message had, oldest first (chat.update history). */
  history: { text: string; blocks?: unknown[] }[];
  reactions: string[];
}

export type Failure =
  { status: 429; retryAfter?: number } | { status: 500 | 502 | 503 } | { error: string };

export interface FakeIdentity {
  user_id: string;
  bot_id: string;
  team_id: string;
  user: string;
}

export interface FakeSlackApi {
  /** Web API base, e.g. `http://127.0.0.1:1234/api/`. */
  readonly url: string;
  readonly calls: RecordedCall[];
  readonly messages: FakeMessage[];
  readonly identity: FakeIdentity;
  callsTo(method: string): RecordedCall[];
  /** Successful calls of a method. */
  okCallsTo(method: string): RecordedCall[];
  message(channel: string, ts: string): FakeMessage | undefined;
  /** Put a message into a channel (someone spoke); returns its ts. */
  seedMessage(m: {
    channel: string;
    text: string;
    user?: string;
    bot_id?: string;
    thread_ts?: string;
    ts?: string;
  }): string;
  /** Fail the next `times` calls of `method`. */
  failNext(method: string, failure: Failure, times?: number): void;
  /** Answer apps.connections.open with this WebSocket URL. */
  socketUrl?: string;
  close(): Promise<void>;
}

const JSON_FIELDS = new Set(['blocks', 'attachments', 'metadata', 'view']);

function parseParams(contentType: string, raw: string): Record<string, unknown> {
  if (raw === '') return {};
  if (contentType.startsWith('application/json')) return JSON.parse(raw) as Record<string, unknown>;
  const params: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    params[key] = JSON_FIELDS.has(key) ? (JSON.parse(value) as unknown) : value;
  }
  return params;
}

function isMetadata(v: unknown): v is { event_type: string } {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { event_type?: unknown }).event_type === 'string'
  );
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export async function startFakeSlackApi(
  options: { identity?: Partial<FakeIdentity>; clock?: () => number } = {},
): Promise<FakeSlackApi> {
  const identity: FakeIdentity = {
    user_id: 'UBOT0001',
    bot_id: 'BBOT0001',
    team_id: 'T0000001',
    user: 'agent-relay',
    ...options.identity,
  };
  const now = options.clock ?? (() => Date.now());
  const calls: RecordedCall[] = [];
  const messages: FakeMessage[] = [];
  const failures = new Map<string, Failure[]>();
  // Like Slack's: the posting time in microseconds, strictly increasing.
  let lastMicros = 0;
  const nextTs = () => {
    lastMicros = Math.max(lastMicros + 1, Math.floor(now() * 1000));
    return `${Math.floor(lastMicros / 1e6)}.${String(lastMicros % 1e6).padStart(6, '0')}`;
  };
  const listed = (list: FakeMessage[], p: Record<string, unknown>) => {
    const oldest = str(p.oldest);
    const withMetadata = p.include_all_metadata === true || p.include_all_metadata === 'true';
    return list
      .filter((m) => oldest === undefined || Number(m.ts) >= Number(oldest))
      .map(({ history: _h, reactions: _r, metadata, ...m }) =>
        withMetadata && metadata ? { ...m, metadata } : m,
      );
  };
  const find = (channel: string, ts: string) =>
    messages.find((m) => m.channel === channel && m.ts === ts);

  function answer(method: string, p: Record<string, unknown>): Record<string, unknown> {
    const channel = str(p.channel) ?? '';
    switch (method) {
      case 'auth.test':
        return { ok: true, url: 'https://fake.slack.test/', team: 'Fake', ...identity };
      case 'chat.postMessage': {
        if (channel === '') return { ok: false, error: 'channel_not_found' };
        const m: FakeMessage = {
          channel,
          ts: nextTs(),
          text: str(p.text) ?? '',
          user: identity.user_id,
          bot_id: identity.bot_id,
          history: [],
          reactions: [],
          ...(Array.isArray(p.blocks) ? { blocks: p.blocks } : {}),
          ...(str(p.thread_ts) ? { thread_ts: str(p.thread_ts) } : {}),
          ...(isMetadata(p.metadata) ? { metadata: p.metadata } : {}),
        };
        m.history.push({ text: m.text, ...(m.blocks ? { blocks: m.blocks } : {}) });
        messages.push(m);
        const { history: _h, reactions: _r, ...posted } = m;
        return { ok: true, channel, ts: m.ts, message: posted };
      }
      case 'chat.update': {
        const m = find(channel, str(p.ts) ?? '');
        if (m === undefined) return { ok: false, error: 'message_not_found' };
        m.text = str(p.text) ?? m.text;
        if (Array.isArray(p.blocks)) m.blocks = p.blocks;
        m.history.push({ text: m.text, ...(m.blocks ? { blocks: m.blocks } : {}) });
        return { ok: true, channel, ts: m.ts, text: m.text };
      }
      case 'chat.postEphemeral':
        return { ok: true, message_ts: nextTs() };
      case 'reactions.add': {
        const ts = str(p.timestamp) ?? '';
        let m = find(channel, ts);
        if (m === undefined) {
          m = { channel, ts, text: '', history: [], reactions: [] };
          messages.push(m);
        }
        const name = str(p.name) ?? '';
        if (m.reactions.includes(name)) return { ok: false, error: 'already_reacted' };
        m.reactions.push(name);
        return { ok: true };
      }
      case 'conversations.replies': {
        const ts = str(p.ts) ?? '';
        const inThread = messages
          .filter((m) => m.channel === channel && (m.ts === ts || m.thread_ts === ts))
          .sort((a, b) => (a.ts < b.ts ? -1 : 1));
        if (inThread.length === 0) return { ok: false, error: 'thread_not_found' };
        return {
          ok: true,
          messages: listed(inThread, p),
          has_more: false,
          response_metadata: { next_cursor: '' },
        };
      }
      case 'conversations.history': {
        // Top-level messages (and thread parents), newest first, as Slack lists them.
        const top = messages
          .filter((m) => m.channel === channel && (!m.thread_ts || m.thread_ts === m.ts))
          .sort((a, b) => (a.ts < b.ts ? 1 : -1));
        return {
          ok: true,
          messages: listed(top, p),
          has_more: false,
          response_metadata: { next_cursor: '' },
        };
      }
      case 'views.open':
        return { ok: true, view: { id: 'V0000001' } };
      case 'apps.connections.open':
        return api.socketUrl === undefined
          ? { ok: false, error: 'invalid_auth' }
          : { ok: true, url: api.socketUrl };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = /^\/api\/([A-Za-z.]+)/.exec(req.url ?? '')?.[1] ?? '';
      const raw = Buffer.concat(chunks).toString('utf8');
      let params: Record<string, unknown>;
      try {
        params = parseParams(req.headers['content-type'] ?? '', raw);
      } catch {
        res.writeHead(400).end();
        return;
      }
      const auth = req.headers.authorization;
      const token = auth?.startsWith('Bearer ') ? auth.slice(7) : str(params.token);
      const call: RecordedCall = {
        method,
        params,
        status: 200,
        at: now(),
        ...(token ? { token } : {}),
      };
      calls.push(call);
      const queue = failures.get(method);
      const failure = queue?.shift();
      if (failure !== undefined) {
        if ('error' in failure) {
          call.error = failure.error;
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ ok: false, error: failure.error }));
          return;
        }
        call.status = failure.status;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (failure.status === 429 && failure.retryAfter !== undefined)
          headers['retry-after'] = String(failure.retryAfter);
        res
          .writeHead(failure.status, headers)
          .end(JSON.stringify({ ok: false, error: 'ratelimited' }));
        return;
      }
      const body = answer(method, params);
      if (body.ok === false) call.error = String(body.error);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const api: FakeSlackApi = {
    url: `http://127.0.0.1:${port}/api/`,
    calls,
    messages,
    identity,
    callsTo: (method) => calls.filter((c) => c.method === method),
    okCallsTo: (method) =>
      calls.filter((c) => c.method === method && c.status === 200 && c.error === undefined),
    message: find,
    seedMessage(m) {
      const ts = m.ts ?? nextTs();
      messages.push({
        channel: m.channel,
        ts,
        text: m.text,
        history: [],
        reactions: [],
        ...(m.user ? { user: m.user } : {}),
        ...(m.bot_id ? { bot_id: m.bot_id } : {}),
        ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
      });
      return ts;
    },
    failNext(method, failure, times = 1) {
      const queue = failures.get(method) ?? [];
      for (let i = 0; i < times; i++) queue.push(failure);
      failures.set(method, queue);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}
