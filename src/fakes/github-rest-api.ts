/**
 * A fake GitHub REST API on loopback (node:http, 127.0.0.1, port 0), for the demo, the tests
 * and the benchmarks. It records what it receives (every request; comments, edits, review
 * replies, reactions, installation-token requests, installation lookups, permission checks), checks credentials
 * like GitHub does (github-auth.ts), answers the endpoints agent-relay and `doctor` call
 * (github-routes.ts), and can be told to fail the next N matching requests (403 secondary
 * rate limit, 500, 404, …) or to be down altogether.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGitHubAuth } from './github-auth.js';
import type { GitHubCredentials } from './github-auth.js';
import { createCheckRuns, sendCheckRunEvent } from './github-check-runs.js';
import type { CheckRunEventOptions, FakeCheckRun } from './github-check-runs.js';
import { DEFAULT_INSTALLATION_PERMISSIONS, headShaOf, routeGitHub } from './github-routes.js';
import type { RouteContext } from './github-routes.js';
import { BOT_LOGIN, createGitHubState } from './github-state.js';
import { GITHUB_DESCRIPTION_SOURCE, githubRequestProblems } from './github-published.js';
import { recordRefusal } from './published.js';
import type { FakeComment, FakeReaction, GitHubChange } from './github-state.js';

export type { FakeComment, FakeReaction, GitHubChange } from './github-state.js';
export type { FakeCheckRun } from './github-check-runs.js';
export { DEFAULT_INSTALLATION_PERMISSIONS } from './github-routes.js';
export { issueOf } from './github-state.js';

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
  authorization?: string;
  /** Arrival, real time (ms, `performance.now()`). */
  at: number;
}

export interface FailureRule {
  method?: string;
  path?: RegExp;
  status: number;
  times?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Requests this rule matches wait `ms` before being answered (a slow GitHub). */
export interface DelayRule {
  method?: string;
  path?: RegExp;
  ms: number;
}

export interface FakeGitHubOptions extends GitHubCredentials {
  /** The clock of installation-token expiry and comment times (default real time). */
  now?: () => number;
  /**
   * What the App's installation tokens may do (default DEFAULT_INSTALLATION_PERMISSIONS, no
   * `checks`); `{ …, checks: 'write' }` lets the App write check runs.
   */
  permissions?: Record<string, string>;
}

export interface FakeGitHub {
  url: string;
  /** The login of the App's bot, the author of every comment agent-relay writes. */
  botLogin: string;
  requests: RecordedRequest[];
  comments: Map<number, FakeComment>;
  /** Every reaction request, in order (deletions do not remove entries). */
  reactions: FakeReaction[];
  /** The reaction contents on a comment or issue body now (after deletions). */
  reactionsNow(
    target: FakeReaction['target'],
    id: number,
    where: { owner: string; repo: string },
  ): string[];
  tokenRequests: { installationId: number; token: string }[];
  installationLookups: string[];
  failNext(rule: FailureRule): void;
  /** Forget every failure rule not yet used up (`times: Infinity` fails until then). */
  clearFailures(): void;
  /** Answer matching requests only after a while, until the fake closes. */
  delay(rule: DelayRule): void;
  /** While down, every request answers 503 (an outage). */
  setDown(down: boolean): void;
  setInstallation(owner: string, repo: string, installationId: number): void;
  setPullRequest(
    owner: string,
    repo: string,
    number: number,
    refs: { head: string; base: string; sha?: string },
  ): void;
  /** Check runs written by the App, by id (their writes in order on each). */
  checkRuns: Map<number, FakeCheckRun>;
  /** The check runs on a pull request's head commit (as set with setPullRequest). */
  checkRunsOn(owner: string, repo: string, number: number): FakeCheckRun[];
  /**
   * Someone clicks a check run's button (`requested_action`) or "Re-run" (`rerequested`):
   * the signed `check_run` webhook GitHub sends the App.
   */
  sendCheckRunEvent(run: FakeCheckRun, options: CheckRunEventOptions): Promise<Response>;
  /**
   * A person's role in a repository as the collaborator permission endpoint reports it
   * (`admin`, `maintain`, `write`, `triage`, `read`, `none`; `missing` answers 404). Default
   * `write`.
   */
  setPermission(owner: string, repo: string, login: string, role: string): void;
  /** Every collaborator permission check, as `owner/repo:login`, in order. */
  permissionLookups: string[];
  /** Comments of a thread in creation order. */
  commentsOn(owner: string, repo: string, number: number): FakeComment[];
  /** A person comments on an issue (the webhook about it is the caller's to send). */
  addHumanComment(
    issue: { owner: string; repo: string; number: number },
    author: string,
    body: string,
  ): FakeComment;
  /** Every comment, edit and reaction agent-relay makes, as it happens. */
  onChange(listener: (change: GitHubChange) => void): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers = {}): void {
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

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const now = options.now ?? Date.now;
  const state = createGitHubState(now);
  const auth = createGitHubAuth(options, now);
  const checkRuns = createCheckRuns();
  const context: RouteContext = {
    state,
    auth,
    installationLookups: [],
    permissions: options.permissions ?? { ...DEFAULT_INSTALLATION_PERMISSIONS },
    checkRuns,
    ...(options.app ? { appId: options.app.appId } : {}),
  };
  const requests: RecordedRequest[] = [];
  const rules: FailureRule[] = [];
  const delays: DelayRule[] = [];
  let down = false;

  const server = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      const url = new URL(req.url ?? '/', 'http://fake');
      const path = url.pathname;
      const body = await readJson(req).catch(() => undefined);
      const authorization = req.headers.authorization;
      requests.push({ method, path, body, authorization, at: performance.now() });
      const slow = delays.find(
        (d) =>
          (d.method === undefined || d.method === method) &&
          (d.path === undefined || d.path.test(path)),
      );
      if (slow !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, slow.ms).unref());
      }
      if (res.destroyed) return;
      if (down) return send(res, 503, { message: 'Service Unavailable' });
      const rule = rules.find(
        (r) =>
          (r.times ?? 1) > 0 &&
          (r.method === undefined || r.method === method) &&
          (r.path === undefined || r.path.test(path)),
      );
      if (rule !== undefined) {
        rule.times = (rule.times ?? 1) - 1;
        const failure = rule.body ?? { message: `fake failure ${rule.status}` };
        return send(res, rule.status, failure, rule.headers);
      }
      if (!auth.authorized(path, authorization))
        return send(res, 401, { message: 'Bad credentials' });
      const request = { method, path, query: url.searchParams, body };
      const refused = githubRequestProblems(request);
      if (refused !== undefined) {
        recordRefusal({ platform: 'github', ...refused, source: GITHUB_DESCRIPTION_SOURCE });
        return send(res, 422, {
          message: 'Invalid request.',
          errors: refused.problems,
          documentation_url: 'https://docs.github.com/rest',
          status: '422',
        });
      }
      const reply = routeGitHub(context, { ...request, user: auth.userOf(authorization) });
      // Every other 422 the fake answers is a rule GitHub documents (a check run's fields and
      // buttons, a completed check run kept final, a comment's 65,536 characters).
      if (reply.status === 422)
        recordRefusal({
          platform: 'github',
          request: `${method} ${path}`,
          problems: ((reply.body as { errors?: unknown[] }).errors ?? []).map((e) =>
            typeof e === 'string' ? e : JSON.stringify(e),
          ),
          source: "GitHub's REST description and documentation (src/fakes/github-check-runs.ts)",
        });
      send(res, reply.status, reply.body);
    })().catch((err: unknown) => send(res, 500, { message: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    botLogin: BOT_LOGIN,
    requests,
    comments: state.comments,
    reactions: state.reactions,
    reactionsNow: (target, id, where) => state.reactionsOn(target, id, where).map((r) => r.content),
    tokenRequests: auth.tokenRequests,
    installationLookups: context.installationLookups,
    failNext: (rule) => rules.push({ ...rule }),
    clearFailures: () => void rules.splice(0),
    delay: (rule) => void delays.push({ ...rule }),
    setDown: (value) => void (down = value),
    setInstallation: (owner, repo, id) =>
      state.installations.set(`${owner}/${repo}`.toLowerCase(), id),
    setPullRequest: (owner, repo, number, refs) =>
      state.pulls.set(`${owner}/${repo}#${number}`.toLowerCase(), refs),
    checkRuns: checkRuns.runs,
    checkRunsOn: (owner, repo, number) => {
      const key = `${owner}/${repo}#${number}`.toLowerCase();
      const sha = state.pulls.get(key)?.sha ?? headShaOf(key);
      return [...checkRuns.runs.values()].filter(
        (c) =>
          `${c.owner}/${c.repo}`.toLowerCase() === `${owner}/${repo}`.toLowerCase() &&
          c.headSha === sha,
      );
    },
    sendCheckRunEvent: (run, o) =>
      sendCheckRunEvent(run, o, (c) => {
        for (const [key, refs] of state.pulls) {
          const [where = '', n] = key.split('#');
          const sha = refs.sha ?? headShaOf(key);
          if (where === `${c.owner}/${c.repo}`.toLowerCase() && sha === c.headSha) return Number(n);
        }
        return undefined;
      }),
    setPermission: (owner, repo, login, role) =>
      state.permissions.set(`${owner}/${repo}\u0000${login}`.toLowerCase(), role),
    permissionLookups: state.permissionLookups,
    commentsOn: (owner, repo, number) =>
      [...state.comments.values()].filter(
        (c) => c.owner === owner && c.repo === repo && c.number === number,
      ),
    addHumanComment: ({ owner, repo, number }, author, body) =>
      state.create({ kind: 'issue', owner, repo, number, body, author }),
    onChange: state.onChange,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
