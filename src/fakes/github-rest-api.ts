/**
 * A fake GitHub REST API on loopback (node:http, 127.0.0.1, port 0) for the notifier and
 * App-auth tests. It records what it receives (comments, edits, review replies, reactions,
 * installation-token requests, installation lookups), checks credentials like GitHub does
 * (App JWT signed with the App's key for `/app/...` and `/repos/{o}/{r}/installation`;
 * a minted installation token or the configured token elsewhere), and can be told to fail
 * the next N matching requests (403 secondary rate limit, 500, 404, …).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
  authorization?: string;
  /** Arrival, real time (ms). */
  at: number;
}

export interface FakeComment {
  id: number;
  kind: 'issue' | 'review';
  owner: string;
  repo: string;
  number: number;
  /** The current body (after the last edit). */
  body: string;
  /** The body it was created with. */
  firstBody: string;
  /** Bodies after each edit, in order. */
  edits: string[];
  inReplyTo?: number;
  /** Epoch ms of the creation or last edit (what the list endpoints' `since` filters on). */
  updatedAt: number;
}

export interface FakeReaction {
  target: 'issue_comment' | 'review_comment' | 'issue';
  id: number;
  content: string;
}

export interface FailureRule {
  method?: string;
  path?: RegExp;
  status: number;
  times?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FakeGitHubOptions {
  /** App mode: verify JWTs against this public key and `iss`. */
  app?: { appId: string | number; publicKey: string | KeyObject };
  /** Token mode: the token every request must carry. */
  token?: string;
  tokenTtlMs?: number;
  /** The clock of installation-token expiry (default real time). */
  now?: () => number;
}

export interface FakeGitHub {
  url: string;
  requests: RecordedRequest[];
  comments: Map<number, FakeComment>;
  reactions: FakeReaction[];
  tokenRequests: { installationId: number; token: string }[];
  installationLookups: string[];
  failNext(rule: FailureRule): void;
  setInstallation(owner: string, repo: string, installationId: number): void;
  setPullRequest(
    owner: string,
    repo: string,
    number: number,
    refs: { head: string; base: string },
  ): void;
  /** Comments of a thread in creation order. */
  commentsOn(owner: string, repo: string, number: number): FakeComment[];
  close(): Promise<void>;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
}

/** An App JWT: RS256 by the App's key, `iss` the App id, not expired (real time, like GitHub). */
function verifyJwt(jwt: string, key: KeyObject, appId: string | number): boolean {
  const [header, payload, signature] = jwt.split('.');
  if (header === undefined || payload === undefined || signature === undefined) return false;
  const ok = verifySignature(
    'RSA-SHA256',
    Buffer.from(`${header}.${payload}`),
    key,
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) return false;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    iss?: unknown;
    exp?: number;
  };
  return String(claims.iss) === String(appId) && (claims.exp ?? 0) * 1000 > Date.now();
}

const APP_ROUTE = /^\/app(\/|$)|^\/repos\/[^/]+\/[^/]+\/installation$/;

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const now = options.now ?? Date.now;
  const tokenTtlMs = options.tokenTtlMs ?? 60 * 60_000;
  const appKey = options.app === undefined ? undefined : createPublicKey(options.app.publicKey);
  const requests: RecordedRequest[] = [];
  const comments = new Map<number, FakeComment>();
  const reactions: FakeReaction[] = [];
  const tokenRequests: { installationId: number; token: string }[] = [];
  const installationLookups: string[] = [];
  const validTokens = new Map<string, number>();
  const installations = new Map<string, number>();
  const pulls = new Map<string, { head: string; base: string }>();
  const rules: FailureRule[] = [];
  let nextId = 5000;
  let url = '';

  const authorized = (path: string, auth: string | undefined): boolean => {
    const [scheme = '', credential = ''] = (auth ?? '').split(' ');
    if (options.app !== undefined && appKey !== undefined) {
      if (APP_ROUTE.test(path))
        return /^bearer$/i.test(scheme) && verifyJwt(credential, appKey, options.app.appId);
      const expires = validTokens.get(credential);
      return /^token$/i.test(scheme) && expires !== undefined && expires > now();
    }
    return options.token === undefined || credential === options.token;
  };

  const commentJson = (c: FakeComment) => ({
    id: c.id,
    node_id: `IC_${c.id}`,
    body: c.body,
    html_url:
      c.kind === 'review'
        ? `https://github.com/${c.owner}/${c.repo}/pull/${c.number}#discussion_r${c.id}`
        : `https://github.com/${c.owner}/${c.repo}/issues/${c.number}#issuecomment-${c.id}`,
    user: { login: 'agent-relay[bot]', type: 'Bot' },
    ...(c.inReplyTo === undefined ? {} : { in_reply_to_id: c.inReplyTo }),
  });

  const create = (
    c: Omit<FakeComment, 'id' | 'edits' | 'firstBody' | 'updatedAt'>,
  ): FakeComment => {
    const comment = { ...c, id: ++nextId, firstBody: c.body, edits: [], updatedAt: now() };
    comments.set(comment.id, comment);
    return comment;
  };

  const route = (
    method: string,
    path: string,
    body: Record<string, unknown> | undefined,
    res: ServerResponse,
    query: URLSearchParams = new URLSearchParams(),
  ): void => {
    const text = typeof body?.body === 'string' ? body.body : undefined;
    if (text !== undefined && text.length > 65_536) {
      return send(res, 422, {
        message: 'Validation Failed',
        errors: [{ message: 'Body is too long (maximum is 65536 characters)' }],
      });
    }
    let m: RegExpExecArray | null;
    if (method === 'POST' && (m = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path))) {
      const installationId = Number(m[1]);
      const token = `ghs_fake_${installationId}_${tokenRequests.length + 1}`;
      const expiresAt = now() + tokenTtlMs;
      validTokens.set(token, expiresAt);
      tokenRequests.push({ installationId, token });
      return send(res, 201, {
        token,
        expires_at: new Date(expiresAt).toISOString(),
        permissions: {
          issues: 'write',
          pull_requests: 'write',
          metadata: 'read',
          contents: 'read',
        },
        repository_selection: 'all',
      });
    }
    if (method === 'GET' && (m = /^\/repos\/([^/]+)\/([^/]+)\/installation$/.exec(path))) {
      installationLookups.push(`${m[1]}/${m[2]}`);
      const id = installations.get(`${m[1]}/${m[2]}`.toLowerCase());
      return id === undefined
        ? send(res, 404, { message: 'Not Found' })
        : send(res, 200, { id, app_id: options.app?.appId });
    }
    if (method === 'GET' && (m = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/.exec(path))) {
      const refs = pulls.get(`${m[1]}/${m[2]}#${m[3]}`.toLowerCase());
      return refs === undefined
        ? send(res, 404, { message: 'Not Found' })
        : send(res, 200, {
            number: Number(m[3]),
            head: { ref: refs.head },
            base: { ref: refs.base },
          });
    }
    if (
      method === 'GET' &&
      (m = /^\/repos\/([^/]+)\/([^/]+)\/(issues|pulls)\/(\d+)\/comments$/.exec(path))
    ) {
      // The thread's comments (review comments for `pulls`), oldest first, `since` and pages.
      const since = query.get('since');
      const perPage = Number(query.get('per_page') ?? 30);
      const page = Number(query.get('page') ?? 1);
      const kind = m[3] === 'issues' ? 'issue' : 'review';
      const all = [...comments.values()]
        .filter(
          (c) =>
            c.kind === kind &&
            c.owner.toLowerCase() === (m?.[1] ?? '').toLowerCase() &&
            c.repo.toLowerCase() === (m?.[2] ?? '').toLowerCase() &&
            c.number === Number(m?.[4]) &&
            (since === null || c.updatedAt >= Date.parse(since)),
        )
        .sort((a, b) => a.id - b.id);
      return send(res, 200, all.slice((page - 1) * perPage, page * perPage).map(commentJson));
    }
    if (
      method === 'POST' &&
      (m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path))
    ) {
      const c = create({
        kind: 'issue',
        owner: m[1] ?? '',
        repo: m[2] ?? '',
        number: Number(m[3]),
        body: text ?? '',
      });
      return send(res, 201, commentJson(c));
    }
    if (
      method === 'POST' &&
      (m = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/comments\/(\d+)\/replies$/.exec(path))
    ) {
      const c = create({
        kind: 'review',
        owner: m[1] ?? '',
        repo: m[2] ?? '',
        number: Number(m[3]),
        body: text ?? '',
        inReplyTo: Number(m[4]),
      });
      return send(res, 201, commentJson(c));
    }
    if (
      method === 'PATCH' &&
      (m = /^\/repos\/[^/]+\/[^/]+\/(issues|pulls)\/comments\/(\d+)$/.exec(path))
    ) {
      const c = comments.get(Number(m[2]));
      if (c === undefined || c.kind !== (m[1] === 'issues' ? 'issue' : 'review'))
        return send(res, 404, { message: 'Not Found' });
      c.body = text ?? '';
      c.edits.push(c.body);
      c.updatedAt = now();
      return send(res, 200, commentJson(c));
    }
    if (
      method === 'POST' &&
      (m =
        /^\/repos\/[^/]+\/[^/]+\/(issues\/comments|pulls\/comments|issues)\/(\d+)\/reactions$/.exec(
          path,
        ))
    ) {
      const target =
        m[1] === 'issues/comments'
          ? 'issue_comment'
          : m[1] === 'pulls/comments'
            ? 'review_comment'
            : 'issue';
      reactions.push({ target, id: Number(m[2]), content: String(body?.content) });
      return send(res, 201, { id: reactions.length, content: body?.content });
    }
    return send(res, 404, {
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest',
    });
  };

  const server = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      const url = new URL(req.url ?? '/', 'http://fake');
      const path = url.pathname;
      const body = await readJson(req).catch(() => undefined);
      requests.push({
        method,
        path,
        body,
        authorization: req.headers.authorization,
        at: performance.now(),
      });
      const rule = rules.find(
        (r) =>
          (r.times ?? 1) > 0 &&
          (r.method === undefined || r.method === method) &&
          (r.path === undefined || r.path.test(path)),
      );
      if (rule !== undefined) {
        rule.times = (rule.times ?? 1) - 1;
        return send(
          res,
          rule.status,
          rule.body ?? { message: `fake failure ${rule.status}` },
          rule.headers,
        );
      }
      if (!authorized(path, req.headers.authorization))
        return send(res, 401, { message: 'Bad credentials' });
      route(method, path, body, res, url.searchParams);
    })().catch((err: unknown) => send(res, 500, { message: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    comments,
    reactions,
    tokenRequests,
    installationLookups,
    failNext: (rule) => rules.push({ ...rule }),
    setInstallation: (owner, repo, id) => installations.set(`${owner}/${repo}`.toLowerCase(), id),
    setPullRequest: (owner, repo, number, refs) =>
      pulls.set(`${owner}/${repo}#${number}`.toLowerCase(), refs),
    commentsOn: (owner, repo, number) =>
      [...comments.values()].filter(
        (c) => c.owner === owner && c.repo === repo && c.number === number,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
