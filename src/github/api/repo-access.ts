/**
 * The RepoAccess port on GitHub: a person's role in a repository from
 * `GET /repos/{owner}/{repo}/collaborators/{username}/permission`, compared with the
 * configured minimum (GITHUB_MIN_PERMISSION). Answers GitHub gave are cached for a few
 * minutes per (repository, person), in a bounded map; concurrent questions share one
 * request. A failure to ask (5xx, timeout, rate limit, bad credentials) is `unknown`, never
 * allowed, and is not cached.
 */
import { z } from 'zod';
import {
  REPO_PERMISSIONS,
  reaches,
  type Clock,
  type Logger,
  type RepoAccess,
  type RepoAccessVerdict,
  type RepoPermission,
} from '../../core/ports/index.js';
import type { GitHubClients } from './github-client.js';

export interface GitHubRepoAccessDeps {
  clients: Pick<GitHubClients, 'forRepo'>;
  minimum: RepoPermission;
  clock: Clock;
  logger: Logger;
  /** How long an answer is trusted. Default 5 minutes. */
  ttlMs?: number;
  /** (repository, person) answers kept. Default 2,000. */
  maxEntries?: number;
  /** Bound on one request. Default 5 s. */
  timeoutMs?: number;
}

const PermissionAnswer = z.object({
  permission: z.string(),
  role_name: z.string().optional(),
});

/**
 * The person's role: `role_name` when it is one of GitHub's five (it tells `maintain` and
 * `triage` apart), otherwise (a custom role) the base `permission` it maps to.
 */
export function roleOf(answer: z.infer<typeof PermissionAnswer>): RepoPermission | 'none' {
  const named = (REPO_PERMISSIONS as readonly string[]).find((r) => r === answer.role_name);
  if (named !== undefined) return named as RepoPermission;
  const base = (REPO_PERMISSIONS as readonly string[]).find((r) => r === answer.permission);
  return (base as RepoPermission | undefined) ?? 'none';
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

export function createGitHubRepoAccess(deps: GitHubRepoAccessDeps): RepoAccess {
  const ttlMs = deps.ttlMs ?? 5 * 60_000;
  const maxEntries = deps.maxEntries ?? 2_000;
  const timeoutMs = deps.timeoutMs ?? 5_000;
  const log = deps.logger.child({ component: 'github-access' });
  const known = new Map<string, { role: RepoPermission | 'none'; until: number }>();
  const pending = new Map<string, Promise<RepoAccessVerdict>>();

  const verdict = (role: RepoPermission | 'none'): RepoAccessVerdict =>
    reaches(role, deps.minimum)
      ? { kind: 'allowed', role: role as RepoPermission }
      : { kind: 'refused', role, required: deps.minimum };

  function remember(key: string, role: RepoPermission | 'none'): void {
    known.delete(key);
    known.set(key, { role, until: deps.clock.now() + ttlMs });
    for (const oldest of known.keys()) {
      if (known.size <= maxEntries) break;
      known.delete(oldest);
    }
  }

  async function ask(owner: string, repo: string, login: string): Promise<RepoAccessVerdict> {
    const key = `${owner}/${repo}\u0000${login}`.toLowerCase();
    try {
      const octokit = await deps.clients.forRepo(owner, repo);
      const res = await octokit.rest.repos.getCollaboratorPermissionLevel({
        owner,
        repo,
        username: login,
        request: { signal: AbortSignal.timeout(timeoutMs) },
      });
      const role = roleOf(PermissionAnswer.parse(res.data));
      remember(key, role);
      return verdict(role);
    } catch (err) {
      // 404: no such user, or not one GitHub shows for this repository: no access.
      if (statusOf(err) === 404) {
        remember(key, 'none');
        return verdict('none');
      }
      const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      log.warn(
        { owner, repo, login, status: statusOf(err), reason },
        'could not check repository access; refusing for now',
      );
      return { kind: 'unknown', reason };
    }
  }

  return {
    async check({ owner, repo, login }) {
      const key = `${owner}/${repo}\u0000${login}`.toLowerCase();
      const hit = known.get(key);
      if (hit !== undefined && hit.until > deps.clock.now()) return verdict(hit.role);
      const inFlight = pending.get(key);
      if (inFlight !== undefined) return inFlight;
      const lookup = ask(owner, repo, login).finally(() => pending.delete(key));
      pending.set(key, lookup);
      return lookup;
    },
  };
}
