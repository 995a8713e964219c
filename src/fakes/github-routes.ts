/**
 * The REST endpoints the fake GitHub answers, as GitHub answers them: issue comments (create,
 * edit, list with `since` and pages), review-comment replies, reactions (add, list, delete),
 * pull requests' branches, collaborator permissions, installation tokens and lookups, and `/rate_limit`, `/user` and `/app` (what
 * `doctor` asks); check runs (create, update, list per commit: github-check-runs.ts).
 */
import { createHash } from 'node:crypto';
import type { RestEndpointMethodTypes } from '@octokit/rest';
import { TOKEN_USER, type createGitHubAuth } from './github-auth.js';
import type { CheckRuns } from './github-check-runs.js';
import type { GitHubSchema, PublishedAnswer } from './github-published.js';
import { commentJson } from './github-state.js';
import type { GitHubState } from './github-state.js';

type ReactionContent =
  RestEndpointMethodTypes['reactions']['createForIssue']['parameters']['content'];
/**
 * The reactions GitHub's published description allows (`reactions/create-for-issue` and the
 * comment variants), checked against Octokit's endpoint types when this compiles, both ways.
 */
export const REACTION_CONTENTS = [
  '+1',
  '-1',
  'laugh',
  'confused',
  'heart',
  'hooray',
  'rocket',
  'eyes',
] as const satisfies readonly ReactionContent[];
const everyReaction: [Exclude<ReactionContent, (typeof REACTION_CONTENTS)[number]>] extends [never]
  ? true
  : false = true;
void everyReaction;

export interface GitHubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown> | undefined;
  /** Whom the request's credential belongs to (the author of what it writes). */
  user?: string;
}

export interface Reply {
  status: number;
  body: unknown;
}

export interface RouteContext {
  state: GitHubState;
  auth: ReturnType<typeof createGitHubAuth>;
  appId?: string | number;
  installationLookups: string[];
  /** What an installation token may do (`checks: 'write'` lets it write check runs). */
  permissions: Record<string, string>;
  checkRuns: CheckRuns;
}

/** The permissions the fake App's installation tokens carry unless told otherwise. */
export const DEFAULT_INSTALLATION_PERMISSIONS: Readonly<Record<string, string>> = {
  issues: 'write',
  pull_requests: 'write',
  metadata: 'read',
};

/** A pull request's head commit when the test named none: stable per pull request. */
export const headShaOf = (key: string): string =>
  createHash('sha1').update(key.toLowerCase()).digest('hex');

/** GitHub's answer to a check-run write without an App token that has `checks: write`. */
function mayWriteChecks(ctx: RouteContext, req: GitHubRequest): Reply | undefined {
  if (req.user === TOKEN_USER)
    return { status: 403, body: { message: 'You must authenticate via a GitHub App.' } };
  if (ctx.permissions.checks !== 'write')
    return { status: 403, body: { message: 'Resource not accessible by integration' } };
  return undefined;
}

type Handler = (ctx: RouteContext, m: string[], req: GitHubRequest) => Reply;

const NOT_FOUND: Reply = { status: 404, body: { message: 'Not Found' } };
const ok = (body: unknown, status = 200): Reply => ({ status, body });
const text = (req: GitHubRequest) => (typeof req.body?.body === 'string' ? req.body.body : '');
const repoKey = (owner = '', repo = '') => `${owner}/${repo}`.toLowerCase();

function listComments(ctx: RouteContext, [, o, r, kind, n]: string[], req: GitHubRequest) {
  // The thread's comments (review comments for `pulls`), oldest first, `since` and pages.
  const since = req.query.get('since');
  const perPage = Number(req.query.get('per_page') ?? 30);
  const page = Number(req.query.get('page') ?? 1);
  const all = [...ctx.state.comments.values()]
    .filter(
      (c) =>
        c.kind === (kind === 'issues' ? 'issue' : 'review') &&
        repoKey(c.owner, c.repo) === repoKey(o, r) &&
        c.number === Number(n) &&
        (since === null || c.updatedAt >= Date.parse(since)),
    )
    .sort((a, b) => a.id - b.id);
  return ok(all.slice((page - 1) * perPage, page * perPage).map(commentJson));
}

/**
 * Whom the fake knows nothing about gets `write`: the tests that do not care about access
 * (most) see everyone with an allowed association as a writer, as before the check existed.
 */
const DEFAULT_ROLE = 'write';
const BASE_PERMISSION: Record<string, string> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
  none: 'none',
};

const REACTION_TARGETS = {
  'issues/comments': 'issue_comment',
  'pulls/comments': 'review_comment',
  issues: 'issue',
} as const;

const ROUTES: [string, RegExp, Handler][] = [
  [
    'GET',
    /^\/rate_limit$/,
    () => {
      const core = { limit: 5000, remaining: 4999, reset: 0, used: 1 };
      return ok({ resources: { core }, rate: core });
    },
  ],
  ['GET', /^\/user$/, () => ok({ login: TOKEN_USER, type: 'User' })],
  [
    'GET',
    /^\/app$/,
    (ctx) =>
      ok({
        id: ctx.appId,
        slug: 'agent-relay',
        name: 'agent-relay',
        installations_count: new Set(ctx.state.installations.values()).size,
      }),
  ],
  [
    'POST',
    /^\/app\/installations\/(\d+)\/access_tokens$/,
    (ctx, [, id]) => {
      const { token, expiresAt } = ctx.auth.mint(Number(id));
      const permissions = ctx.permissions;
      const expires_at = new Date(expiresAt).toISOString();
      const answer: PublishedAnswer<GitHubSchema['installation-token']> = {
        token,
        expires_at,
        permissions,
        repository_selection: 'all',
      };
      return ok(answer, 201);
    },
  ],
  [
    'GET',
    /^\/repos\/([^/]+)\/([^/]+)\/installation$/,
    (ctx, [, o, r]) => {
      ctx.installationLookups.push(`${o}/${r}`);
      const id = ctx.state.installations.get(repoKey(o, r));
      return id === undefined ? NOT_FOUND : ok({ id, app_id: ctx.appId });
    },
  ],
  [
    'GET',
    /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/,
    (ctx, [, o, r, n]) => {
      const refs = ctx.state.pulls.get(`${repoKey(o, r)}#${n}`);
      if (refs === undefined) return NOT_FOUND;
      const sha = refs.sha ?? headShaOf(`${repoKey(o, r)}#${n}`);
      return ok({ number: Number(n), head: { ref: refs.head, sha }, base: { ref: refs.base } });
    },
  ],
  [
    'POST',
    /^\/repos\/([^/]+)\/([^/]+)\/check-runs$/,
    (ctx, [, owner = '', repo = ''], req) => {
      const refused = mayWriteChecks(ctx, req);
      if (refused) return refused;
      const body = req.body ?? {};
      const problem = ctx.checkRuns.invalid(body);
      if (problem)
        return { status: 422, body: { message: 'Validation Failed', errors: [problem] } };
      return ok(ctx.checkRuns.json(ctx.checkRuns.create(owner, repo, body)), 201);
    },
  ],
  [
    'PATCH',
    /^\/repos\/([^/]+)\/([^/]+)\/check-runs\/(\d+)$/,
    (ctx, [, o, r, id], req) => {
      const refused = mayWriteChecks(ctx, req);
      if (refused) return refused;
      const run = ctx.checkRuns.runs.get(Number(id));
      if (run === undefined || repoKey(run.owner, run.repo) !== repoKey(o, r)) return NOT_FOUND;
      const body = req.body ?? {};
      const problem =
        ctx.checkRuns.reopens(run, body) ??
        ctx.checkRuns.invalid({ details_url: run.detailsUrl, ...body });
      if (problem)
        return { status: 422, body: { message: 'Validation Failed', errors: [problem] } };
      ctx.checkRuns.update(run, body);
      return ok(ctx.checkRuns.json(run));
    },
  ],
  [
    'GET',
    /^\/repos\/([^/]+)\/([^/]+)\/commits\/([^/]+)\/check-runs$/,
    (ctx, [, o, r, sha]) => {
      const found = [...ctx.checkRuns.runs.values()].filter(
        (c) => repoKey(c.owner, c.repo) === repoKey(o, r) && c.headSha === sha,
      );
      return ok({ total_count: found.length, check_runs: found.map(ctx.checkRuns.json) });
    },
  ],
  [
    'GET',
    /^\/repos\/([^/]+)\/([^/]+)\/collaborators\/([^/]+)\/permission$/,
    (ctx, [, o, r, login = '']) => {
      ctx.state.permissionLookups.push(`${o}/${r}:${login}`);
      const role =
        ctx.state.permissions.get(`${repoKey(o, r)}\u0000${login.toLowerCase()}`) ?? DEFAULT_ROLE;
      if (role === 'missing') return NOT_FOUND;
      return ok({
        // The base permission GitHub reports beside the role (maintain -> write, triage -> read).
        permission: BASE_PERMISSION[role] ?? 'none',
        role_name: role,
        user: { login, type: 'User' },
      });
    },
  ],
  ['GET', /^\/repos\/([^/]+)\/([^/]+)\/(issues|pulls)\/(\d+)\/comments$/, listComments],
  [
    'POST',
    /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/,
    (ctx, [, owner = '', repo = '', n], req) => {
      const c = ctx.state.create({
        kind: 'issue',
        owner,
        repo,
        number: Number(n),
        body: text(req),
      });
      ctx.state.emit({ kind: 'comment', comment: c });
      return ok(commentJson(c), 201);
    },
  ],
  [
    'POST',
    /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/comments\/(\d+)\/replies$/,
    (ctx, [, owner = '', repo = '', n, root], req) => {
      const c = ctx.state.create({
        kind: 'review',
        owner,
        repo,
        number: Number(n),
        body: text(req),
        inReplyTo: Number(root),
      });
      ctx.state.emit({ kind: 'comment', comment: c });
      return ok(commentJson(c), 201);
    },
  ],
  [
    'PATCH',
    /^\/repos\/[^/]+\/[^/]+\/(issues|pulls)\/comments\/(\d+)$/,
    (ctx, [, kind, id], req) => {
      const c = ctx.state.comments.get(Number(id));
      if (c === undefined || c.kind !== (kind === 'issues' ? 'issue' : 'review')) return NOT_FOUND;
      ctx.state.edit(c, text(req));
      return ok(commentJson(c));
    },
  ],
  [
    'POST',
    /^\/repos\/([^/]+)\/([^/]+)\/(issues\/comments|pulls\/comments|issues)\/(\d+)\/reactions$/,
    (ctx, [, owner = '', repo = '', on, id], req) => {
      const target = REACTION_TARGETS[on as keyof typeof REACTION_TARGETS];
      const content = String(req.body?.content);
      if (!(REACTION_CONTENTS as readonly string[]).includes(content))
        return {
          status: 422,
          body: { message: 'Validation Failed', errors: [`content: ${content} is not a reaction`] },
        };
      const reactionId = ctx.state.react(
        { target, id: Number(id), content },
        { owner, repo },
        req.user,
      );
      return ok({ id: reactionId, content: req.body?.content }, 201);
    },
  ],
  [
    'GET',
    /^\/repos\/([^/]+)\/([^/]+)\/(issues\/comments|pulls\/comments|issues)\/(\d+)\/reactions$/,
    (ctx, [, owner = '', repo = '', on, id], req) => {
      const target = REACTION_TARGETS[on as keyof typeof REACTION_TARGETS];
      const content = req.query.get('content');
      const listed = ctx.state
        .reactionsOn(target, Number(id), { owner, repo })
        .filter((r) => content === null || r.content === content)
        .map((r) => ({
          id: r.reactionId,
          content: r.content,
          user: { login: r.user, type: r.user.endsWith('[bot]') ? 'Bot' : 'User' },
        }));
      return ok(listed);
    },
  ],
  [
    'DELETE',
    /^\/repos\/([^/]+)\/([^/]+)\/(issues\/comments|pulls\/comments|issues)\/(\d+)\/reactions\/(\d+)$/,
    (ctx, [, , , , , reactionId]) =>
      ctx.state.unreact(Number(reactionId)) ? { status: 204, body: undefined } : NOT_FOUND,
  ],
];

export function routeGitHub(ctx: RouteContext, req: GitHubRequest): Reply {
  if (text(req).length > 65_536) {
    return {
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ message: 'Body is too long (maximum is 65536 characters)' }],
      },
    };
  }
  for (const [method, pattern, handler] of ROUTES) {
    const m = method === req.method ? pattern.exec(req.path) : null;
    if (m) return handler(ctx, [...m], req);
  }
  return {
    status: 404,
    body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
  };
}
