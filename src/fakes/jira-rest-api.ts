/**
 * A fake Jira Cloud site on loopback (node:http, 127.0.0.1, port 0) for the tests and the
 * demo: the REST v3 endpoints the relay calls, answered as Atlassian's REST v3 reference
 * describes them, with basic auth checked (the relay account's email and API token), and
 * signed webhooks sent to the relay (jira-webhooks.ts):
 *
 * - `GET /rest/api/2/serverInfo` (`deploymentType`: `Cloud`, or as told);
 * - `GET /rest/api/3/myself`;
 * - `POST /rest/api/3/issue/{key}/comment` (an ADF `body`, optional `properties`; 201),
 *   `PUT …/comment/{id}` (edit), `GET …/comment` (`orderBy`, `maxResults`), and
 *   `POST /rest/api/3/comment/list` ("Get comments by IDs", the one that expands
 *   `properties`);
 * - `GET /rest/api/3/issue/{key}/transitions` and `POST` (`{transition: {id}}`; 204);
 * - `GET /rest/api/3/user/permission/search` (`accountId`, `projectKey`, `permissions`: the
 *   account listed only when it holds them all).
 *
 * It records every request and can be told to fail the next matching ones (429 with
 * Retry-After, 5xx, 404). An ADF body that is not a document is refused with 400, as Jira does.
 * Every request is first held to Atlassian's published OpenAPI description of these endpoints
 * (jira-published.ts): one it refuses answers 400 and fails the test that sent it (published.ts).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createJiraModel, RELAY_ACCOUNT_ID, WORKFLOW, type JiraModel } from './jira-model.js';
import { createJiraWebhooks } from './jira-webhooks.js';
import { JIRA_DESCRIPTION_SOURCE, jiraRequestProblems } from './jira-published.js';
import { recordRefusal } from './published.js';

export { PEOPLE, RELAY_ACCOUNT_ID } from './jira-model.js';
export type { FakeJiraComment, FakeJiraIssue } from './jira-model.js';
export { signJira } from './jira-webhooks.js';

export const FAKE_JIRA_EMAIL = 'relay@example.test';
export const FAKE_JIRA_TOKEN = 'jira-api-token-dummy';
export const FAKE_JIRA_WEBHOOK_SECRET = 'jira-webhook-secret-dummy-0123';

export interface JiraRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface JiraFailure {
  method?: string;
  path?: RegExp;
  status: number;
  times?: number;
  headers?: Record<string, string>;
}

export interface FakeJira {
  url: string;
  /** The site's host name (`127.0.0.1`). */
  site: string;
  model: JiraModel;
  requests: JiraRequest[];
  webhooks: ReturnType<typeof createJiraWebhooks>;
  failNext(rule: JiraFailure): void;
  close(): Promise<void>;
}

const isAdfDoc = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  (v as { type?: unknown }).type === 'doc' &&
  (v as { version?: unknown }).version === 1 &&
  Array.isArray((v as { content?: unknown }).content);

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return Symbol.for('malformed');
  }
}

export interface JiraRestHandlerDeps {
  model: JiraModel;
  /** The root its answers' `self` links name. */
  selfUrl: () => string;
  /** Whether the request's Authorization header may use the site. */
  authorized: (authorization: string | undefined) => boolean;
  requests: JiraRequest[];
  failures: JiraFailure[];
  /** What `serverInfo` says the site is. Default `Cloud`. */
  deploymentType?: string;
}

export function reply(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { ...(text ? { 'content-type': 'application/json' } : {}), ...headers });
  res.end(text);
}

/** The site's REST v3 answers, for a request already read (`path` below the site's root). */
export function createJiraRestHandler(deps: JiraRestHandlerDeps) {
  const { model, requests, failures } = deps;
  const error = (res: ServerResponse, status: number, message: string) =>
    reply(res, status, { errorMessages: [message], errors: {} });

  const commentJson = (c: ReturnType<JiraModel['addComment']>, withProperties: boolean) => ({
    self: `${deps.selfUrl()}/rest/api/3/issue/${c.issueKey}/comment/${c.id}`,
    id: c.id,
    author: { accountId: c.authorId },
    body: c.body,
    created: new Date(c.created).toISOString(),
    ...(withProperties ? { properties: c.properties } : {}),
  });

  return async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    u: { pathname: string; searchParams: URLSearchParams },
    body: unknown,
  ): Promise<void> {
    const method = req.method ?? 'GET';
    requests.push({ method, path: u.pathname, query: u.searchParams, body });
    const failure = failures.find(
      (f) =>
        (f.method === undefined || f.method === method) &&
        (f.path === undefined || f.path.test(u.pathname)),
    );
    if (failure) {
      failure.times = (failure.times ?? 1) - 1;
      if (failure.times <= 0) failures.splice(failures.indexOf(failure), 1);
      return reply(res, failure.status, { errorMessages: ['injected failure'] }, failure.headers);
    }
    if (!deps.authorized(req.headers.authorization))
      return error(res, 401, 'Client must be authenticated to access this resource.');
    if (body === Symbol.for('malformed')) return error(res, 400, 'Unexpected character');
    const refused = jiraRequestProblems({ method, path: u.pathname, query: u.searchParams, body });
    if (refused) {
      recordRefusal({ platform: 'jira', ...refused, source: JIRA_DESCRIPTION_SOURCE });
      return reply(res, 400, { errorMessages: refused.problems, errors: {} });
    }

    if (method === 'GET' && u.pathname === '/rest/api/2/serverInfo') {
      return reply(res, 200, {
        baseUrl: deps.selfUrl(),
        version: deps.deploymentType === undefined ? '1001.0.0-SNAPSHOT' : '9.12.0',
        deploymentType: deps.deploymentType ?? 'Cloud',
        serverTitle: 'Jira',
      });
    }
    if (method === 'GET' && u.pathname === '/rest/api/3/myself') {
      const me = model.users.get(RELAY_ACCOUNT_ID)!;
      return reply(res, 200, {
        self: `${deps.selfUrl()}/rest/api/3/user?accountId=${me.accountId}`,
        accountId: me.accountId,
        accountType: me.accountType,
        displayName: me.displayName,
        active: true,
      });
    }
    if (method === 'GET' && u.pathname === '/rest/api/3/user/permission/search') {
      const accountId = u.searchParams.get('accountId') ?? '';
      const project = (u.searchParams.get('projectKey') ?? '').toUpperCase();
      const wanted = (u.searchParams.get('permissions') ?? '').split(',').filter(Boolean);
      if (wanted.length === 0) return error(res, 400, 'permissions is required');
      const person = model.users.get(accountId);
      const held = person?.permissions[project] ?? [];
      const holds = person !== undefined && wanted.every((p) => held.includes(p));
      return reply(
        res,
        200,
        holds ? [{ accountId, displayName: person.displayName, active: true }] : [],
      );
    }
    if (method === 'POST' && u.pathname === '/rest/api/3/comment/list') {
      const ids = (body as { ids?: unknown } | undefined)?.ids;
      if (!Array.isArray(ids)) return error(res, 400, 'ids is required');
      const wanted = new Set(ids.map(String));
      const withProps = (u.searchParams.get('expand') ?? '').split(',').includes('properties');
      const values = model.comments
        .filter((c) => wanted.has(c.id))
        .map((c) => commentJson(c, withProps));
      return reply(res, 200, {
        startAt: 0,
        maxResults: 1000,
        total: values.length,
        isLast: true,
        values,
      });
    }
    const issueRoute = /^\/rest\/api\/3\/issue\/([^/]+)\/(comment|transitions)(?:\/([^/]+))?$/.exec(
      u.pathname,
    );
    if (!issueRoute) return error(res, 404, 'Not found');
    const issue = model.issues.get(decodeURIComponent(issueRoute[1]!));
    if (!issue)
      return error(res, 404, 'Issue does not exist or you do not have permission to see it.');
    const [, , what, sub] = issueRoute;

    if (what === 'comment' && sub === undefined && method === 'POST') {
      const b = body as { body?: unknown; properties?: unknown } | undefined;
      if (!isAdfDoc(b?.body)) return error(res, 400, 'Comment body is not valid ADF.');
      const properties = Array.isArray(b?.properties)
        ? (b.properties as { key: string; value: unknown }[])
        : [];
      const made = model.addComment(issue.key, RELAY_ACCOUNT_ID, b!.body, properties);
      return reply(res, 201, commentJson(made, false));
    }
    if (what === 'comment' && sub === undefined && method === 'GET') {
      const newestFirst = u.searchParams.get('orderBy') === '-created';
      const max = Math.min(Number(u.searchParams.get('maxResults') ?? 50) || 50, 100);
      const all = model.commentsOf(issue.key);
      const ordered = newestFirst ? [...all].reverse() : all;
      // This endpoint expands `renderedBody` only: properties come from /comment/list.
      return reply(res, 200, {
        startAt: 0,
        maxResults: max,
        total: all.length,
        comments: ordered.slice(0, max).map((c) => commentJson(c, false)),
      });
    }
    if (what === 'comment' && sub !== undefined && method === 'PUT') {
      const comment = model.commentsOf(issue.key).find((c) => c.id === sub);
      if (!comment) return error(res, 404, 'Can not find a comment for the id.');
      if (comment.authorId !== RELAY_ACCOUNT_ID)
        return error(res, 403, 'You do not have permission to edit this comment.');
      const b = body as { body?: unknown } | undefined;
      if (!isAdfDoc(b?.body)) return error(res, 400, 'Comment body is not valid ADF.');
      comment.edits.push(comment.body);
      comment.body = b!.body;
      return reply(res, 200, commentJson(comment, false));
    }
    if (what === 'transitions' && method === 'GET') {
      return reply(res, 200, {
        transitions: (WORKFLOW[issue.status] ?? []).map((t) => ({
          id: t.id,
          name: t.name,
          to: { name: t.to, statusCategory: { key: t.category } },
          hasScreen: false,
        })),
      });
    }
    if (what === 'transitions' && method === 'POST') {
      const id = (body as { transition?: { id?: unknown } } | undefined)?.transition?.id;
      const t = (WORKFLOW[issue.status] ?? []).find((x) => x.id === id);
      if (!t) return error(res, 400, 'Transition id is not valid for this issue.');
      issue.status = t.to;
      return reply(res, 204);
    }
    return error(res, 405, 'Method not allowed');
  };
}

export async function startFakeJira(
  options: {
    webhookSecret?: string;
    email?: string;
    apiToken?: string;
    /** What `serverInfo` says the site is (`DataCenter`, `Server`). Default `Cloud`. */
    deploymentType?: string;
  } = {},
): Promise<FakeJira> {
  const credentials = {
    email: options.email ?? FAKE_JIRA_EMAIL,
    apiToken: options.apiToken ?? FAKE_JIRA_TOKEN,
  };
  const model = createJiraModel(credentials);
  const requests: JiraRequest[] = [];
  const failures: JiraFailure[] = [];
  const expectedAuth = `Basic ${Buffer.from(`${credentials.email}:${credentials.apiToken}`).toString('base64')}`;
  const rest = createJiraRestHandler({
    model,
    selfUrl: () => url,
    authorized: (authorization) => authorization === expectedAuth,
    requests,
    failures,
    ...(options.deploymentType === undefined ? {} : { deploymentType: options.deploymentType }),
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    await rest(req, res, u, await readJson(req));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) reply(res, 500, { errorMessages: ['fake failure'] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const webhooks = createJiraWebhooks(model, {
    url,
    secret: options.webhookSecret ?? FAKE_JIRA_WEBHOOK_SECRET,
  });
  return {
    url,
    site: '127.0.0.1',
    model,
    requests,
    webhooks,
    failNext: (rule) => failures.push({ times: 1, ...rule }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
