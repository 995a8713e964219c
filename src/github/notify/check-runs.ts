/**
 * The check run of each run on a pull request (GitHub App auth with `checks: write` only):
 * created on the pull request's head commit the first time the run's status message is
 * written, then updated with every later write of it. A completed check run is final on
 * GitHub, so when the run works again after one completed (an answer after BLOCKED, a
 * follow-up, Re-run) the new episode gets a new check run on the head commit of that time;
 * each episode has one. Which check run a run has now is remembered here and, after a
 * restart, found again on the commit by its `external_id` (the run id; the newest of them)
 * before anything is created.
 *
 * Nothing changes where check runs are not possible: token auth, an installation without
 * `checks: write`, an issue rather than a pull request. Those are found out once (per
 * installation, per thread) and never asked again.
 */
import { z } from 'zod';
import type { RunView } from '../../core/message/message-model.js';
import type { Clock, Logger } from '../../core/ports/index.js';
import { decodeThreadKey } from '../../core/thread-key.js';
import type { GitHubAuth, GitHubClients, RelayOctokit } from '../api/github-client.js';
import { renderCheckRun } from '../render/render-check-run.js';
import { toDeliveryError } from './delivery-error.js';
import { readCheckExternalId } from '../api/check-external-id.js';

export interface CheckRunsDeps {
  auth: GitHubAuth;
  clients: GitHubClients;
  logger: Logger;
  clock: Clock;
  timeoutMs: number;
  botHandle?: string;
}

export interface CheckRuns {
  /**
   * Bring the run's check run up to date with its status message (`cardUrl`: the comment's
   * address). Throws a DeliveryError only for what a retry may fix.
   */
  sync(threadKey: string, run: RunView, cardUrl?: string): Promise<void>;
}

const Head = z.object({ head: z.object({ sha: z.string().min(1) }) });
const Listed = z.object({
  check_runs: z.array(
    z.object({
      id: z.number(),
      external_id: z.string().nullish(),
      status: z.string().nullish(),
    }),
  ),
});
const Created = z.object({ id: z.number().int().positive() });

const statusOf = (err: unknown): number | undefined => {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
};

/** How long a repository whose App may not write checks is not asked again. */
const ASK_AGAIN_MS = 60 * 60_000;
/** Entries each memo here keeps at most (oldest forgotten first). */
const MAX_REMEMBERED = 10_000;

export function createCheckRuns(deps: CheckRunsDeps): CheckRuns {
  const log = deps.logger.child({ component: 'github-check-runs' });
  /** Run id -> its current check run (owner, repo, id, and whether it has completed). */
  const known = new Map<string, { owner: string; repo: string; id: number; completed: boolean }>();
  /** Threads that are issues, not pull requests. */
  const notPulls = new Set<string>();
  /**
   * Repositories whose installation token cannot write check runs, until when: an owner may
   * grant the permission later, and the next token (within the hour) carries it.
   */
  const refused = new Map<string, number>();
  /** What each run's check run says now (an unchanged one is not written again). */
  const written = new Map<string, string>();
  /** One write at a time per run, so two writes never create two check runs. */
  const chains = new Map<string, Promise<void>>();

  function remember<T>(set: Set<T>, value: T): void;
  function remember<K, V>(map: Map<K, V>, key: K, value: V): void;
  function remember(into: Set<unknown> | Map<unknown, unknown>, key: unknown, value?: unknown) {
    if (into instanceof Map) {
      into.delete(key);
      into.set(key, value);
    } else into.add(key);
    if (into.size > MAX_REMEMBERED) into.delete(into.keys().next().value);
  }

  const refuse = (repoKey: string) => remember(refused, repoKey, deps.clock.now() + ASK_AGAIN_MS);

  async function mayWrite(octokit: RelayOctokit, repoKey: string): Promise<boolean> {
    if ((refused.get(repoKey) ?? 0) > deps.clock.now()) return false;
    const before = refused.has(repoKey);
    const auth = (await octokit.auth({ type: 'installation' })) as {
      permissions?: Record<string, string>;
    };
    if (auth.permissions?.checks === 'write') {
      refused.delete(repoKey);
      return true;
    }
    refuse(repoKey);
    if (before) return false;
    log.info(
      { repository: repoKey },
      'the GitHub App has no checks:write here; runs get no check run',
    );
    return false;
  }

  async function write(threadKey: string, run: RunView, cardUrl?: string): Promise<void> {
    const addr = decodeThreadKey(threadKey);
    if (addr?.platform !== 'github' || notPulls.has(`${addr.owner}/${addr.repo}#${addr.number}`))
      return;
    const { owner, repo } = addr;
    const repoKey = `${owner}/${repo}`.toLowerCase();
    const request = { signal: AbortSignal.timeout(deps.timeoutMs) };
    const fields = renderCheckRun(run, {
      botHandle: deps.botHandle,
      cardUrl,
      pullNumber: addr.number,
    });
    const says = JSON.stringify(fields);
    if (written.get(run.runId) === says) return;
    const completed = fields.status === 'completed';
    try {
      const octokit = await deps.clients.forRepo(owner, repo);
      /** The pull request's head commit now; undefined when the thread is not a pull request. */
      const headNow = async (): Promise<string | undefined> => {
        try {
          const pull = await octokit.rest.pulls.get({
            owner,
            repo,
            pull_number: addr.number,
            request,
          });
          return Head.parse(pull.data).head.sha;
        } catch (err) {
          if (statusOf(err) !== 404) throw err;
          remember(notPulls, `${owner}/${repo}#${addr.number}`);
          return undefined;
        }
      };
      let current = known.get(run.runId);
      let head: string | undefined;
      if (current === undefined) {
        if (!(await mayWrite(octokit, repoKey))) return;
        head = await headNow();
        if (head === undefined) return;
        const listed = await octokit.rest.checks.listForRef({
          owner,
          repo,
          ref: head,
          // Not by name: the run's title (and so the name) may have changed since.
          filter: 'all',
          per_page: 100,
          request,
        });
        // The newest of the run's check runs: earlier episodes have completed.
        const found = Listed.parse(listed.data)
          .check_runs.filter((c) => readCheckExternalId(c.external_id ?? '').runId === run.runId)
          .sort((a, b) => b.id - a.id)[0];
        if (found !== undefined)
          current = { owner, repo, id: found.id, completed: found.status === 'completed' };
      }
      // A completed check run stays so: the run working again is a new check run.
      if (current !== undefined && current.completed && !completed) current = undefined;
      if (current === undefined) {
        head ??= await headNow();
        if (head === undefined) return;
        const made = await octokit.rest.checks.create({
          owner,
          repo,
          head_sha: head,
          ...fields,
          request,
        });
        const id = Created.parse(made.data).id;
        log.info({ runId: run.runId, checkRunId: id }, 'check run created');
        remember(known, run.runId, { owner, repo, id, completed });
        remember(written, run.runId, says);
        return;
      }
      await octokit.rest.checks.update({
        owner,
        repo,
        check_run_id: current.id,
        ...fields,
        request,
      });
      remember(known, run.runId, { ...current, completed: current.completed || completed });
      remember(written, run.runId, says);
    } catch (err) {
      const failure = toDeliveryError(err, 'check run', deps.clock.now());
      if (failure.retryable) throw failure;
      // A check run is an extra view of the run: a refusal never holds up its messages.
      if (statusOf(err) === 403) refuse(repoKey);
      log.warn({ runId: run.runId, code: failure.code }, 'check run not written');
    }
  }

  return {
    async sync(threadKey, run, cardUrl) {
      if (deps.auth.kind !== 'app' || run.runId === '') return;
      const before = chains.get(run.runId) ?? Promise.resolve();
      const next = before.catch(() => undefined).then(() => write(threadKey, run, cardUrl));
      chains.set(run.runId, next);
      try {
        await next;
      } finally {
        if (chains.get(run.runId) === next) chains.delete(run.runId);
      }
    },
  };
}
