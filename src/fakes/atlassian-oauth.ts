/**
 * A fake of Atlassian's OAuth 2.0 (3LO) authorization server and API gateway on loopback,
 * for the tests: one server that plays both hosts, answering as Atlassian's developer
 * documentation describes them ("OAuth 2.0 (3LO) apps", "Implementing the refresh token
 * flow", "Making calls to the API", and the REST v3 "Webhooks" group):
 *
 * - `GET /authorize` (`audience=api.atlassian.com`, `client_id`, `scope`, `redirect_uri`,
 *   `state`, `response_type=code`): the person consents at once, for the sites `consent` names,
 *   and the browser is sent to `redirect_uri?code=…&state=…`;
 * - `POST /oauth/token` (JSON): `authorization_code` (the code once, its redirect URI, the
 *   client's id and secret) and `refresh_token`, answering `access_token`, `expires_in`,
 *   `scope` and, with `offline_access`, a `refresh_token`; refresh tokens rotate (a used one
 *   answers 403 `invalid_grant`); an access token stops working when it expires or is
 *   replaced;
 * - `GET /oauth/token/accessible-resources`: the token's sites (`id` = cloud id, `url`,
 *   `scopes`);
 * - `/ex/jira/{cloudId}/rest/api/3/…`: each site's REST API (the fake Jira's handler) for a
 *   bearer whose grant includes the site, or for the site's service account (basic auth with
 *   its scoped API token, as Atlassian's "Manage API tokens for service accounts" says), plus the app's dynamic webhooks
 *   (`POST /rest/api/3/webhook`, `PUT …/webhook/refresh`, `DELETE …/webhook`); a site's
 *   webhooks are then sent to the URL registered, with the JWT Jira signs for OAuth apps.
 *
 * It keeps a clock of its own (`advance`), so a test can let a token expire.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createJiraModel, type JiraModel } from './jira-model.js';
import {
  createJiraRestHandler,
  readJson,
  reply,
  type JiraFailure,
  type JiraRequest,
} from './jira-rest-api.js';
import { JIRA_DESCRIPTION_SOURCE, jiraRequestProblems } from './jira-published.js';
import { createJiraWebhooks } from './jira-webhooks.js';
import { recordRefusal } from './published.js';

export const FAKE_JIRA_CLIENT_ID = 'jira-oauth-client-dummy';
export const FAKE_JIRA_CLIENT_SECRET = 'jira-oauth-client-secret-dummy-0123';
const LIFE_SECONDS = 3600;

export interface FakeAtlassianSite {
  cloudId: string;
  /** `https://acme.atlassian.net` (never called: every call goes through the gateway). */
  url: string;
  host: string;
  model: JiraModel;
  webhooks: ReturnType<typeof createJiraWebhooks>;
  /** The app's webhooks registered there. */
  registered: { id: number; url: string; events: string[]; jqlFilter: string; expiresAt: number }[];
  /** Send a webhook body to every URL the app registered there (JWT-signed). */
  deliver(
    body: unknown,
    options?: Parameters<ReturnType<typeof createJiraWebhooks>['send']>[1],
  ): Promise<Response[]>;
}

interface Grant {
  sites: string[];
  scopes: string[];
  access: string;
  accessExpiresAt: number;
  refresh?: string;
}

export interface FakeAtlassian {
  url: string;
  sites: Map<string, FakeAtlassianSite>;
  /** The cloud ids the next consent grants (default: every site), and scopes it withholds. */
  consent: { sites?: string[]; withhold?: string[] };
  requests: JiraRequest[];
  /** Token requests, by grant type. */
  tokenRequests: { grant_type: string }[];
  addSite(host: string): FakeAtlassianSite;
  /** A service account with a scoped API token on a site (basic auth through the gateway). */
  serviceAccount(cloudId: string, email: string, apiToken: string): void;
  /** Move the fake's clock (token expiry). */
  advance(ms: number): void;
  failNext(rule: JiraFailure): void;
  close(): Promise<void>;
}

export async function startFakeAtlassian(
  options: { clientId?: string; clientSecret?: string } = {},
): Promise<FakeAtlassian> {
  const clientId = options.clientId ?? FAKE_JIRA_CLIENT_ID;
  const clientSecret = options.clientSecret ?? FAKE_JIRA_CLIENT_SECRET;
  const sites = new Map<string, FakeAtlassianSite>();
  const consent: FakeAtlassian['consent'] = {};
  const requests: JiraRequest[] = [];
  const failures: JiraFailure[] = [];
  const tokenRequests: { grant_type: string }[] = [];
  const codes = new Map<string, { redirectUri: string; sites: string[]; scopes: string[] }>();
  const grants: Grant[] = [];
  /** Per cloud id, the `Basic …` header of its service account. */
  const serviceAccounts = new Map<string, string>();
  let skew = 0;
  let nextWebhook = 1;
  const now = () => Date.now() + skew;
  const token = (kind: string) => `${kind}-${randomBytes(12).toString('hex')}`;

  const grantOf = (authorization: string | undefined) => {
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    return grants.find((g) => g.access === bearer && g.accessExpiresAt > now());
  };

  function issue(g: Omit<Grant, 'access' | 'accessExpiresAt' | 'refresh'>) {
    const grant: Grant = {
      ...g,
      access: token('access'),
      accessExpiresAt: now() + LIFE_SECONDS * 1000,
      ...(g.scopes.includes('offline_access') ? { refresh: token('refresh') } : {}),
    };
    grants.push(grant);
    return {
      access_token: grant.access,
      expires_in: LIFE_SECONDS,
      scope: grant.scopes.join(' '),
      ...(grant.refresh ? { refresh_token: grant.refresh } : {}),
    };
  }

  async function token_(res: ServerResponse, body: Record<string, unknown>) {
    tokenRequests.push({ grant_type: String(body.grant_type) });
    if (body.client_id !== clientId || body.client_secret !== clientSecret)
      return reply(res, 401, { error: 'access_denied', error_description: 'Unauthorized' });
    if (body.grant_type === 'authorization_code') {
      const code = codes.get(String(body.code));
      codes.delete(String(body.code));
      if (!code || code.redirectUri !== body.redirect_uri)
        return reply(res, 403, { error: 'invalid_grant', error_description: 'Invalid code' });
      return reply(res, 200, issue({ sites: code.sites, scopes: code.scopes }));
    }
    if (body.grant_type === 'refresh_token') {
      const old = grants.find((g) => g.refresh !== undefined && g.refresh === body.refresh_token);
      if (!old)
        return reply(res, 403, {
          error: 'invalid_grant',
          error_description: 'Unknown or invalid refresh token.',
        });
      // Rotation: the used refresh token, and the access token it came with, stop working.
      grants.splice(grants.indexOf(old), 1);
      return reply(res, 200, issue({ sites: old.sites, scopes: old.scopes }));
    }
    return reply(res, 400, { error: 'unsupported_grant_type' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    if (method === 'GET' && u.pathname === '/authorize') {
      const q = u.searchParams;
      if (
        q.get('client_id') !== clientId ||
        q.get('audience') !== 'api.atlassian.com' ||
        q.get('response_type') !== 'code' ||
        !q.get('redirect_uri')
      )
        return reply(res, 400, { error: 'invalid_request' });
      const code = token('code');
      const redirectUri = q.get('redirect_uri') ?? '';
      codes.set(code, {
        redirectUri,
        sites: consent.sites ?? [...sites.keys()],
        scopes: (q.get('scope') ?? '')
          .split(' ')
          .filter((s) => s !== '' && !(consent.withhold ?? []).includes(s)),
      });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return void res.end();
    }
    const body = await readJson(req);
    if (method === 'POST' && u.pathname === '/oauth/token')
      return token_(res, (body ?? {}) as Record<string, unknown>);
    const grant = grantOf(req.headers.authorization);
    if (method === 'GET' && u.pathname === '/oauth/token/accessible-resources') {
      if (!grant) return reply(res, 401, { code: 401, message: 'Unauthorized' });
      return reply(
        res,
        200,
        grant.sites.map((id) => ({
          id,
          name: sites.get(id)!.host.split('.')[0],
          url: sites.get(id)!.url,
          scopes: grant.scopes.filter((s) => s !== 'offline_access'),
          avatarUrl: 'https://example.test/avatar.png',
        })),
      );
    }
    const routed = /^\/ex\/jira\/([^/]+)(\/.*)$/.exec(u.pathname);
    const site = routed ? sites.get(decodeURIComponent(routed[1]!)) : undefined;
    if (!routed || !site) return reply(res, 404, { message: 'Not found' });
    const path = routed[2]!;
    const allowed =
      (grant !== undefined && grant.sites.includes(site.cloudId)) ||
      (serviceAccounts.has(site.cloudId) &&
        req.headers.authorization === serviceAccounts.get(site.cloudId));
    if (path === '/rest/api/3/webhook' || path === '/rest/api/3/webhook/refresh') {
      requests.push({ method, path: u.pathname, query: u.searchParams, body });
      if (!allowed) return reply(res, 401, { errorMessages: ['Unauthorized'] });
      // Only OAuth 2.0 and Connect apps manage dynamic webhooks.
      if (!grant?.scopes.includes('manage:jira-webhook'))
        return reply(res, 403, { errorMessages: ['Missing scope manage:jira-webhook'] });
      const refused = jiraRequestProblems({ method, path, query: u.searchParams, body });
      if (refused) {
        recordRefusal({ platform: 'jira', ...refused, source: JIRA_DESCRIPTION_SOURCE });
        return reply(res, 400, { errorMessages: refused.problems, errors: {} });
      }
      return webhookRoute(res, site, method, path, body as Record<string, unknown> | undefined);
    }
    requests.push({ method, path: u.pathname, query: u.searchParams, body });
    const rest = createJiraRestHandler({
      model: site.model,
      selfUrl: () => site.url,
      authorized: () => allowed,
      requests: [],
      failures,
    });
    return rest(req, res, { pathname: path, searchParams: u.searchParams }, body);
  }

  function webhookRoute(
    res: ServerResponse,
    site: FakeAtlassianSite,
    method: string,
    path: string,
    body: Record<string, unknown> | undefined,
  ) {
    const life = 30 * 24 * 3600_000;
    if (method === 'POST' && path === '/rest/api/3/webhook') {
      const url = body?.url;
      const list = body?.webhooks;
      if (typeof url !== 'string' || !Array.isArray(list))
        return reply(res, 400, { errorMessages: ['url and webhooks are required'] });
      const results = (list as { events?: unknown; jqlFilter?: unknown }[]).map((w) => {
        if (!Array.isArray(w.events) || typeof w.jqlFilter !== 'string')
          return { errors: ['events and jqlFilter are required'] };
        // Only =, !=, IN and NOT IN are supported in a dynamic webhook's JQL.
        if (/\b(is|was|~|<|>)\b/i.test(w.jqlFilter))
          return { errors: ['The JQL query is not supported'] };
        const id = nextWebhook++;
        site.registered.push({
          id,
          url,
          events: w.events.map(String),
          jqlFilter: w.jqlFilter,
          expiresAt: now() + life,
        });
        return { createdWebhookId: id };
      });
      return reply(res, 200, { webhookRegistrationResult: results });
    }
    if (method === 'DELETE' && path === '/rest/api/3/webhook') {
      const ids = Array.isArray(body?.webhookIds) ? body.webhookIds.map(Number) : [];
      site.registered = site.registered.filter((w) => !ids.includes(w.id));
      return reply(res, 202);
    }
    if (method === 'PUT' && path === '/rest/api/3/webhook/refresh') {
      const ids = Array.isArray(body?.webhookIds) ? body.webhookIds.map(Number) : [];
      const until = now() + life;
      for (const w of site.registered) if (ids.includes(w.id)) w.expiresAt = until;
      return reply(res, 200, { expirationDate: new Date(until).toISOString() });
    }
    return reply(res, 405, { errorMessages: ['Method not allowed'] });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) reply(res, 500, { errorMessages: ['fake failure'] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    sites,
    consent,
    requests,
    tokenRequests,
    addSite(host) {
      const cloudId = `${host.split('.')[0]}-${randomBytes(4).toString('hex')}-cloud`;
      const siteUrl = `https://${host}`;
      const model = createJiraModel({ email: 'unused@example.test', apiToken: 'unused' });
      const webhooks = createJiraWebhooks(model, { url: siteUrl, secret: clientSecret, jwt: true });
      const site: FakeAtlassianSite = {
        cloudId,
        url: siteUrl,
        host,
        model,
        webhooks,
        registered: [],
        async deliver(body, sendOptions) {
          const live = site.registered.filter((w) => w.expiresAt > now());
          return Promise.all(live.map((w) => webhooks.send(body, sendOptions, w.url)));
        },
      };
      sites.set(cloudId, site);
      return site;
    },
    serviceAccount(cloudId, email, apiToken) {
      serviceAccounts.set(
        cloudId,
        `Basic ${Buffer.from(`${email}:${apiToken}`).toString('base64')}`,
      );
    },
    advance(ms) {
      skew += ms;
    },
    failNext: (rule) => failures.push({ times: 1, ...rule }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
