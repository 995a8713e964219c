/**
 * `startFakeTeams`: the Bot Framework's side of a Teams bot on loopback, for the tests, the
 * demo and the bench. Follows the published descriptions, not the relay's reading of them:
 *
 * - the Bot Connector's signing: RS256 JWTs with `iss` `https://api.botframework.com`, `aud`
 *   the bot's app id, `serviceurl`, `nbf`/`exp` ("Authentication with the Bot Connector API",
 *   bot-to-connector and connector-to-bot), signed with a local key whose public half it
 *   publishes as OpenID metadata (`/v1/.well-known/openidconfiguration`, `jwks_uri`) and a
 *   JWKS (`/v1/.well-known/keys`), the shape of login.botframework.com's;
 * - Entra's token endpoint for the bot (`POST /{tenant}/oauth2/v2.0/token`, client
 *   credentials for `https://api.botframework.com/.default`): the app's secret checked;
 * - the Bot Connector REST API ("Conversations"): `POST /v3/conversations/{id}/activities`
 *   answers `{id}` (a ResourceResponse), `PUT /v3/conversations/{id}/activities/{activityId}`
 *   replaces one, each with the bot's bearer token; a channel thread's conversation id carries
 *   `;messageid={root}`;
 * - activities as Teams sends them (`message` with `<at>` mentions and their entities,
 *   `invoke` `adaptiveCard/action` for an `Action.Execute`, `composeExtension/submitAction`),
 *   typed by `@microsoft/teams.api`'s fields (`from.aadObjectId`, `conversation.tenantId`,
 *   `channelData.tenant`).
 */
import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_TEAMS_APP_ID = '0b5e6a2c-7f1d-4c1e-9a7b-3d2f1e0c9b8a';
export const FAKE_TEAMS_APP_PASSWORD = 'teams-app-password-dummy-0123';
export const FAKE_TEAMS_TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
export const OTHER_TENANT = '11111111-1111-4111-8111-111111111111';
export const BOT_ISSUER = 'https://api.botframework.com';

export interface TeamsPerson {
  /** The Teams user id (MRI), `29:…`. */
  id: string;
  aadObjectId: string;
  name: string;
  userRole?: 'user' | 'guest' | 'anonymous';
  tenantId?: string;
}

export const TEAMS_PEOPLE = {
  alice: {
    id: '29:1alice',
    aadObjectId: 'a11ce000-0000-4000-8000-000000000001',
    name: 'Alice Park',
  },
  bob: { id: '29:1bob', aadObjectId: 'b0b00000-0000-4000-8000-000000000002', name: 'Bob Stone' },
  carol: {
    id: '29:1carol',
    aadObjectId: 'ca201000-0000-4000-8000-000000000003',
    name: 'Carol Admin',
  },
  guest: {
    id: '29:1guest',
    aadObjectId: '9e570000-0000-4000-8000-000000000004',
    name: 'Gus Guest',
    userRole: 'guest',
  },
} satisfies Record<string, TeamsPerson>;

export const GENERAL_CHANNEL = '19:general0fakechannel@thread.tacv2';

/** What the Bot Connector received from the bot: an activity with its edits. */
export interface ConnectorActivity {
  id: string;
  conversationId: string;
  activity: Record<string, unknown>;
  edits: Record<string, unknown>[];
  /** When it arrived (`performance.now()`). */
  at: number;
}

export interface SendOptions {
  /** Leave the Authorization header out. */
  unsigned?: boolean;
  issuer?: string;
  audience?: string;
  /** Seconds since the token expired (past the 5 minutes of skew the SDK allows). */
  expiredSecondsAgo?: number;
  /** The `serviceurl` claim, when it should differ from the body's. */
  serviceUrlClaim?: string;
  /** Sign with a key the metadata does not publish. */
  foreignKey?: boolean;
}

export interface FakeTeams {
  url: string;
  /** The serviceUrl activities carry (the fake Bot Connector). */
  serviceUrl: string;
  openIdMetadataUrl: string;
  /** Everything the bot sent, in order. */
  activities: ConnectorActivity[];
  /** The bot's activities in one conversation (a thread's `;messageid=` id, or a chat). */
  inConversation(conversationId: string): ConnectorActivity[];
  requests: { method: string; path: string }[];
  /** Sign an activity as the Bot Connector and POST it to the relay. */
  send(
    relayUrl: string,
    activity: Record<string, unknown>,
    options?: SendOptions,
  ): Promise<Response>;
  /** Activities as Teams sends them. */
  build: ActivityBuilder;
  failNext(rule: { method?: string; status: number; retryAfter?: string }): void;
  close(): Promise<void>;
}

export interface ActivityBuilder {
  /** `@agent-relay <words>` as a new post in a channel (it roots a thread) or a thread reply. */
  channelMention(
    person: TeamsPerson,
    words: string,
    options?: { root?: string; tenant?: string },
  ): Record<string, unknown>;
  /** A message in a 1:1 chat with the bot. */
  personal(person: TeamsPerson, words: string): Record<string, unknown>;
  /** `@agent-relay <words>` in a group chat. */
  groupChat(person: TeamsPerson, words: string): Record<string, unknown>;
  /** A press of an `Action.Execute` on a card the bot posted. */
  cardAction(
    person: TeamsPerson,
    card: ConnectorActivity,
    verb: string,
    data: Record<string, unknown>,
  ): Record<string, unknown>;
  /** "Send to agent-relay" on a message. */
  extensionAction(
    person: TeamsPerson,
    message: { id: string; text: string; author: string },
    note?: string,
    options?: { root?: string },
  ): Record<string, unknown>;
}

/** What a person reads of an activity: its text, or its card's texts, facts and buttons. */
export function shownText(
  a: { activity: Record<string, unknown> } | Record<string, unknown>,
): string {
  const activity = ('activity' in a ? a.activity : a) as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof activity.text === 'string') parts.push(activity.text);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.type === 'TextBlock' && typeof o.text === 'string') parts.push(o.text);
    if (o.type === 'FactSet' && Array.isArray(o.facts))
      for (const f of o.facts as { title: string; value: string }[])
        parts.push(`${f.title}: ${f.value}`);
    if (typeof o.title === 'string' && typeof o.type === 'string' && o.type.startsWith('Action.'))
      parts.push(`[${o.title}]`);
    for (const v of Object.values(o)) if (typeof v === 'object') walk(v);
  };
  walk(activity.attachments);
  return parts.join('\n');
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

function jwt(key: KeyObject, kid: string, claims: Record<string, unknown>): string {
  const head = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }));
  const body = b64url(JSON.stringify(claims));
  const signature = sign('sha256', Buffer.from(`${head}.${body}`), key);
  return `${head}.${body}.${b64url(signature)}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeTeams(
  options: { appId?: string; appPassword?: string; tenant?: string } = {},
): Promise<FakeTeams> {
  const appId = options.appId ?? FAKE_TEAMS_APP_ID;
  const appPassword = options.appPassword ?? FAKE_TEAMS_APP_PASSWORD;
  const tenant = options.tenant ?? FAKE_TEAMS_TENANT;
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = createHash('sha256')
    .update(keys.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url')
    .slice(0, 16);
  const issued = new Set<string>();
  const activities: ConnectorActivity[] = [];
  const requests: { method: string; path: string }[] = [];
  const failures: { method?: string; status: number; retryAfter?: string }[] = [];
  let counter = 1_712_000_000_000;
  const nextId = () => String((counter += 1));

  let base = '';
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'ServiceError', message: String(err) } }));
    });
  });

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    const method = req.method ?? 'GET';
    requests.push({ method, path: url.pathname });
    if (method === 'GET' && url.pathname === '/v1/.well-known/openidconfiguration')
      return json(res, 200, {
        issuer: BOT_ISSUER,
        authorization_endpoint: `${base}/v1/authorize`,
        jwks_uri: `${base}/v1/.well-known/keys`,
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
      });
    if (method === 'GET' && url.pathname === '/v1/.well-known/keys') {
      const jwk = keys.publicKey.export({ format: 'jwk' });
      return json(res, 200, {
        keys: [{ ...jwk, kid, kty: 'RSA', use: 'sig', alg: 'RS256', endorsements: ['msteams'] }],
      });
    }
    const tokenPath = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
    if (method === 'POST' && tokenPath) {
      const form = new URLSearchParams(await readBody(req));
      if (
        tokenPath[1] !== tenant ||
        form.get('grant_type') !== 'client_credentials' ||
        form.get('client_id') !== appId ||
        form.get('client_secret') !== appPassword ||
        form.get('scope') !== 'https://api.botframework.com/.default'
      )
        return json(res, 401, { error: 'invalid_client', error_description: 'AADSTS7000215' });
      const token = `fake-bot-token-${randomUUID()}`;
      issued.add(token);
      return json(res, 200, { token_type: 'Bearer', expires_in: 3599, access_token: token });
    }
    const conv = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/.exec(url.pathname);
    if (conv) {
      const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (auth === undefined || !issued.has(auth))
        return json(res, 401, { message: 'Authorization has been denied for this request.' });
      const failure = failures.findIndex((f) => f.method === undefined || f.method === method);
      if (failure >= 0) {
        const [f] = failures.splice(failure, 1);
        res.writeHead(f!.status, {
          'content-type': 'application/json',
          ...(f!.retryAfter ? { 'retry-after': f!.retryAfter } : {}),
        });
        res.end(JSON.stringify({ error: { code: 'ServiceError', message: 'failed on request' } }));
        return;
      }
      const conversationId = decodeURIComponent(conv[1]!);
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      if (typeof body.type !== 'string')
        return json(res, 400, {
          error: { code: 'BadArgument', message: 'Activity type is required' },
        });
      if (method === 'POST' && conv[2] === undefined) {
        const id = nextId();
        if (body.type === 'message')
          activities.push({ id, conversationId, activity: body, edits: [], at: performance.now() });
        return json(res, 201, { id });
      }
      if (method === 'PUT' && conv[2] !== undefined) {
        const id = decodeURIComponent(conv[2]);
        const found = activities.find((a) => a.id === id && a.conversationId === conversationId);
        if (!found)
          return json(res, 404, { error: { code: 'NotFound', message: 'Unknown activity' } });
        found.edits.push(found.activity);
        found.activity = body;
        return json(res, 200, { id });
      }
    }
    json(res, 404, { error: { code: 'NotFound', message: `${method} ${url.pathname}` } });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const serviceUrl = `${base}/`;

  const from = (p: TeamsPerson) => ({
    id: p.id,
    name: p.name,
    aadObjectId: p.aadObjectId,
    ...(p.userRole ? { userRole: p.userRole } : {}),
    ...(p.tenantId ? { tenantId: p.tenantId } : {}),
  });
  const common = (conversation: Record<string, unknown>, t = tenant) => ({
    channelId: 'msteams',
    serviceUrl,
    timestamp: new Date().toISOString(),
    recipient: { id: `28:${appId}`, name: 'agent-relay' },
    conversation: { ...conversation, tenantId: t },
    channelData: { tenant: { id: t } },
  });
  const mentioned = (words: string) => {
    const at = '<at>agent-relay</at>';
    return {
      text: `${at} ${words}`,
      textFormat: 'plain',
      entities: [
        { type: 'mention', text: at, mentioned: { id: `28:${appId}`, name: 'agent-relay' } },
      ],
    };
  };

  const build: ActivityBuilder = {
    channelMention(person, words, o = {}) {
      const id = nextId();
      const root = o.root ?? id;
      return {
        type: 'message',
        id,
        from: from(person),
        ...common(
          {
            id: `${GENERAL_CHANNEL};messageid=${root}`,
            conversationType: 'channel',
            isGroup: true,
          },
          o.tenant,
        ),
        channelData: {
          tenant: { id: o.tenant ?? tenant },
          team: { id: '19:team0fake@thread.tacv2' },
          channel: { id: GENERAL_CHANNEL },
        },
        ...mentioned(words),
      };
    },
    personal(person, words) {
      return {
        type: 'message',
        id: nextId(),
        from: from(person),
        ...common({ id: `a:1chat-${person.aadObjectId}`, conversationType: 'personal' }),
        text: words,
        textFormat: 'plain',
      };
    },
    groupChat(person, words) {
      return {
        type: 'message',
        id: nextId(),
        from: from(person),
        ...common({
          id: '19:groupchat0fake@thread.v2',
          conversationType: 'groupChat',
          isGroup: true,
        }),
        ...mentioned(words),
      };
    },
    cardAction(person, card, verb, data) {
      return {
        type: 'invoke',
        name: 'adaptiveCard/action',
        id: `f:${nextId()}`,
        from: from(person),
        ...common({
          id: card.conversationId,
          conversationType:
            card.conversationId.startsWith('19:') && card.conversationId.includes(';messageid=')
              ? 'channel'
              : 'personal',
        }),
        replyToId: card.id,
        value: { action: { type: 'Action.Execute', verb, data }, trigger: 'manual' },
      };
    },
    extensionAction(person, message, note, o = {}) {
      return {
        type: 'invoke',
        name: 'composeExtension/submitAction',
        id: `f:${nextId()}`,
        from: from(person),
        ...common({
          id: `${GENERAL_CHANNEL};messageid=${o.root ?? message.id}`,
          conversationType: 'channel',
          isGroup: true,
        }),
        value: {
          commandId: 'sendToAgent',
          commandContext: 'message',
          data: note === undefined ? {} : { note },
          messagePayload: {
            id: message.id,
            body: { contentType: 'html', content: `<p>${message.text}</p>` },
            from: { user: { id: '29:someone', displayName: message.author } },
          },
        },
      };
    },
  };

  return {
    url: base,
    serviceUrl,
    openIdMetadataUrl: `${base}/v1/.well-known/openidconfiguration`,
    activities,
    requests,
    inConversation: (id) => activities.filter((a) => a.conversationId === id),
    build,
    failNext(rule) {
      failures.push(rule);
    },
    async send(relayUrl, activity, o = {}) {
      const now = Math.floor(Date.now() / 1000);
      const exp = o.expiredSecondsAgo === undefined ? now + 3600 : now - o.expiredSecondsAgo;
      const claims = {
        iss: o.issuer ?? BOT_ISSUER,
        aud: o.audience ?? appId,
        nbf: Math.min(now, exp) - 3600,
        exp,
        serviceurl: o.serviceUrlClaim ?? (activity.serviceUrl as string),
      };
      const token = jwt(o.foreignKey ? foreign.privateKey : keys.privateKey, kid, claims);
      return fetch(relayUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(o.unsigned ? {} : { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify(activity),
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
