/**
 * A fake of Slack's Web API on loopback, for the demo, the tests and the benchmarks: records
 * every call to `/api/<method>` (form or JSON bodies, as the WebClient sends them, with the
 * token, the status answered and Slack's `error`), keeps the messages as Slack would
 * (slack-messages.ts) and answers the methods agent-relay calls (slack-methods.ts). It checks
 * the bot token when given one, and can be told to fail the next calls of a method (429 with
 * Retry-After, HTTP 5xx, a Slack error). Every call is first held to `@slack/web-api`'s
 * argument types (slack-published.ts): one they refuse answers `invalid_arguments` (or
 * `unknown_method`) and fails the test that made it (published.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSlackStore } from './slack-messages.js';
import type { FakeMessage, SlackChange } from './slack-messages.js';
import { answerSlackMethod } from './slack-methods.js';
import type { FakeIdentity } from './slack-methods.js';
import { createResponseUrls } from './slack-responses.js';
import type { RecordedResponse } from './slack-responses.js';
import { createFakeAgentSessions, type FakeAgentSessions } from './slack-agent-sessions.js';
import { createHistoryGate } from './slack-history-limit.js';
import { recordRefusal } from './published.js';
import { SLACK_ARGUMENTS_SOURCE, slackCallProblems } from './slack-published.js';

export type { FakeMessage, SlackChange } from './slack-messages.js';
export type { FakeIdentity } from './slack-methods.js';
export type { RecordedResponse } from './slack-responses.js';

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

export type Failure =
  { status: 429; retryAfter?: number } | { status: 500 | 502 | 503 } | { error: string };

/** A workspace that can install the app through OAuth (any-number-of-workspaces mode). */
export interface FakeWorkspace {
  team_id: string;
  team: string;
  /** Enterprise Grid: the organisation; with `orgWide`, the install covers all its workspaces. */
  enterprise_id?: string;
  orgWide?: boolean;
  /** The code Slack's consent page hands back for this workspace. */
  code: string;
  /** The bot token oauth.v2.access issues. */
  token: string;
  bot_user_id: string;
  bot_id: string;
  /** Who clicked Allow. */
  installer?: string;
  /** The app has token rotation on: the token expires (12 h) and comes with a refresh token. */
  rotating?: boolean;
}

export interface FakeSlackOptions {
  identity?: Partial<FakeIdentity>;
  /** Workspaces that install through OAuth; each one's token is accepted once installed. */
  workspaces?: FakeWorkspace[];
  /** The app's client credentials oauth.v2.access checks. */
  client?: { id: string; secret: string };
  /** The bot token every call must carry (`invalid_auth` otherwise); any token if unset. */
  token?: string;
  /** The clock of message ts values and call times (default real time). */
  clock?: () => number;
  /**
   * The app is distributed outside the Slack Marketplace without its approval: history reads
   * are limited as Slack documents (slack-history-limit.ts).
   */
  historyLimited?: boolean;
}

export interface FakePerson {
  is_admin?: boolean;
  is_owner?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  team_id?: string;
}

export interface FakeSlackApi {
  /** Web API base, e.g. `http://127.0.0.1:1234/api/`. */
  readonly url: string;
  readonly calls: RecordedCall[];
  /** What everyone in the channels sees, in the order it was posted. */
  readonly messages: FakeMessage[];
  /** Ephemeral messages (each with `onlyFor`). */
  readonly ephemerals: FakeMessage[];
  readonly identity: FakeIdentity;
  callsTo(method: string): RecordedCall[];
  /** Successful calls of a method. */
  okCallsTo(method: string): RecordedCall[];
  message(channel: string, ts: string): FakeMessage | undefined;
  /** The thread rooted at `ts` as its users see it (ephemerals included), oldest first. */
  thread(channel: string, ts: string): FakeMessage[];
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
  /** Every post, edit and reaction, as it happens. */
  onChange(listener: (change: SlackChange) => void): void;
  /** `user` is a member of `channel` (users.conversations, conversations.members). */
  join(channel: string, user: string): void;
  /**
   * What users.info says of a person beyond their id: workspace role (`is_admin`,
   * `is_owner`), guest (`is_restricted`, `is_ultra_restricted`), home team (`team_id`; default
   * the fake's own workspace). Set before the person speaks.
   */
  readonly people: Map<string, FakePerson>;
  /** A workspace's token stops working (the app was removed, the token revoked). */
  revoke(token: string): void;
  /** Views published to App Home, by user (the latest), and every view opened. */
  readonly homeViews: Map<string, Record<string, unknown>>;
  /** Answer apps.connections.open with this WebSocket URL. */
  socketUrl?: string;
  /**
   * A slash command's `response_url` (absolute), for a command `user` typed in `channel`:
   * what is POSTed to it shows up as Slack shows it (slack-responses.ts).
   */
  responseUrl(where: { channel: string; user: string }): string;
  /** Every POST to a response URL, in order. */
  readonly responses: RecordedResponse[];
  /** The bot is not (or no longer) in `channel`: posting or reacting there fails. */
  removeBotFrom(channel: string): void;
  /** Agent sessions of threads (`agents.sessions.*`), and Stop clicked in one. */
  readonly agentSessions: FakeAgentSessions;
  /** Guests of the workspace (users.info says `is_restricted`). */
  readonly guests: Set<string>;
  /** Private channels (conversations.info says `is_private`); others are public. */
  readonly privateChannels: Set<string>;
  close(): Promise<void>;
}

const JSON_FIELDS = new Set(['blocks', 'attachments', 'metadata', 'view', 'prompts']);

function isView(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function parseParams(contentType: string, raw: string): Record<string, unknown> {
  if (raw === '') return {};
  if (contentType.startsWith('application/json')) return JSON.parse(raw) as Record<string, unknown>;
  const params: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    params[key] = JSON_FIELDS.has(key) ? (JSON.parse(value) as unknown) : value;
  }
  return params;
}

/** Methods called with another credential than the bot token (the app-level token). */
const APP_TOKEN_METHODS = new Set(['apps.connections.open']);

export async function startFakeSlackApi(options: FakeSlackOptions = {}): Promise<FakeSlackApi> {
  const identity: FakeIdentity = {
    user_id: 'UBOT0001',
    bot_id: 'BBOT0001',
    team_id: 'T0000001',
    user: 'agent-relay',
    team: 'Fake',
    url: 'https://fake.slack.test/',
    ...options.identity,
  };
  const now = options.clock ?? (() => Date.now());
  const store = createSlackStore(now);
  const calls: RecordedCall[] = [];
  const failures = new Map<string, Failure[]>();
  const members = new Map<string, Set<string>>();

  const workspaces = options.workspaces ?? [];
  const revoked = new Set<string>();
  const homeViews = new Map<string, Record<string, unknown>>();
  const identityOf = (w: FakeWorkspace): FakeIdentity => ({
    user_id: w.bot_user_id,
    bot_id: w.bot_id,
    team_id: w.team_id,
    user: identity.user,
    team: w.team,
    url: `https://${w.team_id.toLowerCase()}.slack.test/`,
    ...(w.enterprise_id ? { enterprise_id: w.enterprise_id } : {}),
  });

  function exchange(params: Record<string, unknown>) {
    const id = typeof params.client_id === 'string' ? params.client_id : undefined;
    const secret = typeof params.client_secret === 'string' ? params.client_secret : undefined;
    if (options.client && (id !== options.client.id || secret !== options.client.secret))
      return { ok: false, error: 'invalid_client_id' };
    const w = workspaces.find((x) => x.code === params.code);
    if (w === undefined) return { ok: false, error: 'invalid_code' };
    revoked.delete(w.token);
    const org = w.orgWide === true;
    return {
      ok: true,
      app_id: 'A0000001',
      authed_user: { id: w.installer ?? 'UINSTALL1' },
      scope: 'app_mentions:read,chat:write,commands',
      token_type: 'bot',
      access_token: w.token,
      bot_user_id: w.bot_user_id,
      team: org ? null : { id: w.team_id, name: w.team },
      enterprise: w.enterprise_id ? { id: w.enterprise_id, name: `${w.enterprise_id} org` } : null,
      is_enterprise_install: org,
      ...(w.rotating === true ? { refresh_token: 'xoxe-1-dummy-refresh', expires_in: 43_200 } : {}),
    };
  }
  const outside = new Set<string>();
  const people = new Map<string, FakePerson>();
  const guests = new Set<string>();
  const privateChannels = new Set<string>();
  const context = {
    store,
    identity,
    members,
    people,
    socketUrl: () => api.socketUrl,
    outside,
    guests,
    privateChannels,
  };
  const responseUrls = createResponseUrls({ store, identity, now });
  const agentSessions = createFakeAgentSessions(now);
  const historyGate = createHistoryGate(now);

  function answer(method: string, params: Record<string, unknown>, token: string | undefined) {
    const refused = slackCallProblems(method, params);
    if (refused !== undefined) {
      recordRefusal({
        platform: 'slack',
        request: method,
        problems: refused.problems,
        source: SLACK_ARGUMENTS_SOURCE,
      });
      return { ok: false, error: refused.error };
    }
    if (method === 'oauth.v2.access') return exchange(params);
    const installed = workspaces.find((w) => w.token === token);
    if (token !== undefined && revoked.has(token)) return { ok: false, error: 'token_revoked' };
    const checked =
      (options.token !== undefined || workspaces.length > 0) && !APP_TOKEN_METHODS.has(method);
    if (checked && token === undefined) return { ok: false, error: 'not_authed' };
    if (checked && token !== options.token && installed === undefined)
      return { ok: false, error: 'invalid_auth' };
    if (method === 'auth.revoke' && token !== undefined) {
      revoked.add(token);
      return { ok: true, revoked: true };
    }
    if (method === 'views.publish' && typeof params.user_id === 'string' && isView(params.view))
      homeViews.set(params.user_id, params.view);
    const ctx = installed === undefined ? context : { ...context, identity: identityOf(installed) };
    return agentSessions.answer(method, params) ?? answerSlackMethod(ctx, method, params);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const response = /^\/commands\/T\/(R\d+)$/.exec(req.url ?? '')?.[1];
      if (response !== undefined && req.method === 'POST') {
        const answered = responseUrls.answer(response, raw);
        res.writeHead(answered.status, { 'content-type': 'text/plain' }).end(answered.text);
        return;
      }
      const method = /^\/api\/([A-Za-z0-9.]+)/.exec(req.url ?? '')?.[1] ?? '';
      let params: Record<string, unknown>;
      try {
        params = parseParams(req.headers['content-type'] ?? '', raw);
      } catch {
        res.writeHead(400).end();
        return;
      }
      const auth = req.headers.authorization;
      const token = auth?.startsWith('Bearer ')
        ? auth.slice(7)
        : typeof params.token === 'string'
          ? params.token
          : undefined;
      const call: RecordedCall = {
        method,
        params,
        status: 200,
        at: now(),
        ...(token ? { token } : {}),
      };
      calls.push(call);
      const failure = failures.get(method)?.shift();
      if (failure !== undefined && !('error' in failure)) {
        call.status = failure.status;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (failure.status === 429 && failure.retryAfter !== undefined)
          headers['retry-after'] = String(failure.retryAfter);
        res
          .writeHead(failure.status, headers)
          .end(JSON.stringify({ ok: false, error: 'ratelimited' }));
        return;
      }
      const gate = options.historyLimited
        ? historyGate.admit(method, token ?? '', params)
        : { params };
      if ('retryAfter' in gate) {
        call.status = 429;
        res
          .writeHead(429, {
            'content-type': 'application/json',
            'retry-after': String(gate.retryAfter),
          })
          .end(JSON.stringify({ ok: false, error: 'ratelimited' }));
        return;
      }
      const body = failure
        ? { ok: false, error: failure.error }
        : answer(method, gate.params, token);
      if (body.ok === false) call.error = String(body.error);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const api: FakeSlackApi = {
    url: `http://127.0.0.1:${port}/api/`,
    calls,
    messages: store.messages,
    ephemerals: store.ephemerals,
    identity,
    agentSessions,
    callsTo: (method) => calls.filter((c) => c.method === method),
    okCallsTo: (method) =>
      calls.filter((c) => c.method === method && c.status === 200 && c.error === undefined),
    message: store.find,
    thread: store.thread,
    seedMessage: (m) => store.add(m).ts,
    failNext(method, failure, times = 1) {
      const queue = failures.get(method) ?? [];
      for (let i = 0; i < times; i++) queue.push(failure);
      failures.set(method, queue);
    },
    onChange: store.onChange,
    revoke: (token) => revoked.add(token),
    join(channel, user) {
      const who = members.get(channel) ?? new Set<string>();
      who.add(user);
      members.set(channel, who);
    },
    homeViews,
    people,
    responseUrl: (where) => `http://127.0.0.1:${port}${responseUrls.mint(where)}`,
    responses: responseUrls.responses,
    removeBotFrom: (channel) => void outside.add(channel),
    guests,
    privateChannels,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}
