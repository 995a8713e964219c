/**
 * Octokit clients for the notifier: `@octokit/rest` with the throttling and retry plugins,
 * authenticated as a GitHub App installation (`@octokit/auth-app`, tokens cached until
 * expiry) or with a plain token.
 *
 * Retries stay short inside Octokit: the outbox owns patience. Rate limits (403 secondary,
 * 429, primary exhaustion) are never waited out here: the throttling handlers decline, the
 * error surfaces, and `toDeliveryError` turns it into a retryable `DeliveryError` with the
 * wait GitHub asked for. 5xx get `retries` quick attempts, then surface the same way.
 */
import { createAppAuth } from '@octokit/auth-app';
import { retry } from '@octokit/plugin-retry';
import { throttling, type ThrottlingOptions } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import type { Clock, Logger } from '../../core/ports/index.js';
import { createInstallationIds, type InstallationIds } from './installation-ids.js';
import { createTokenCache, type TokenCache } from './token-cache.js';

export const RelayOctokit = Octokit.plugin(throttling, retry);
export type RelayOctokit = InstanceType<typeof RelayOctokit>;

export type GitHubAuth =
  { kind: 'app'; appId: string | number; privateKey: string } | { kind: 'token'; token: string };

export interface GitHubClientOptions {
  auth: GitHubAuth;
  /** REST base (GitHub Enterprise Server: `https://HOST/api/v3`; tests: a local fake). */
  apiUrl?: string;
  logger: Logger;
  clock: Clock;
  /** Quick retries of 5xx inside Octokit. Default 1. */
  retries?: number;
  /** Base of the retry delay (times retryCount²). Default 500 ms. */
  retryBaseMs?: number;
  /**
   * Spacing of writes (POST/PATCH/…), GitHub's advice against secondary limits. Default 1 s.
   * Content-creating writes (comments) are spaced the same (the plugin's own 3 s would cap
   * a busy relay at 20 comments a minute; GitHub allows 80). Tests pass 0.
   */
  minWriteIntervalMs?: number;
  userAgent?: string;
  /** Resolve a repository's installation (App auth). Default: `GET /repos/{o}/{r}/installation`. */
  installationIdFor?: (owner: string, repo: string) => Promise<number>;
}

export interface GitHubClients {
  /** A client that may act on the repository. */
  forRepo(owner: string, repo: string): Promise<RelayOctokit>;
  /** Remember a repository's installation id (from a webhook payload). No-op in token mode. */
  learnInstallation(owner: string, repo: string, installationId: number): void;
  /** Forget what is cached for a repository after it answered 401/403/404. */
  forgetRepo(owner: string, repo: string): void;
  /** The installation-token cache (App auth), for tests and metrics. */
  readonly tokenCache?: TokenCache;
}

type WriteGroup = NonNullable<Extract<ThrottlingOptions, { onRateLimit: unknown }>['write']>;

/**
 * A stand-in for the plugin's Bottleneck groups of writes: one at a time, at least
 * `minIntervalMs` apart (per client set). The plugin calls only `key(id).schedule(opts, fn)`.
 */
function createWriteSpacing(minIntervalMs: number): WriteGroup {
  let tail: Promise<unknown> = Promise.resolve();
  let last = -Infinity;
  const limiter = {
    schedule<T>(_options: unknown, fn: () => Promise<T>): Promise<T> {
      const run = tail.then(async () => {
        // Real (monotonic) time on purpose: this paces requests, it does not timestamp them.
        const wait = last + minIntervalMs - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        last = performance.now();
      });
      tail = run.catch(() => undefined);
      return run.then(fn);
    },
  };
  return { key: () => limiter } as unknown as WriteGroup;
}

export function createGitHubClients(options: GitHubClientOptions): GitHubClients {
  const log = options.logger.child({ component: 'octokit' });
  const octokitLog = {
    debug: (message: string) => log.debug({}, message),
    info: (message: string) => log.debug({}, message),
    warn: (message: string) => log.warn({}, message),
    error: (message: string) => log.error({}, message),
  };
  const spacing = options.minWriteIntervalMs ?? 1_000;
  const base = {
    baseUrl: options.apiUrl?.replace(/\/+$/, '') ?? 'https://api.github.com',
    userAgent: options.userAgent ?? 'agent-relay',
    log: octokitLog,
    retry: {
      retries: options.retries ?? 1,
      retryAfterBaseValue: options.retryBaseMs ?? 500,
      doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451],
    },
    throttle: {
      write: createWriteSpacing(spacing),
      notifications: createWriteSpacing(spacing),
      onRateLimit: (retryAfter: number, o: { method: string; url: string }) => {
        log.warn(
          { retryAfter, method: o.method, url: o.url },
          'GitHub rate limit: handing back to the outbox',
        );
        return false;
      },
      onSecondaryRateLimit: (retryAfter: number, o: { method: string; url: string }) => {
        log.warn(
          { retryAfter, method: o.method, url: o.url },
          'GitHub secondary rate limit: handing back to the outbox',
        );
        return false;
      },
    },
  };

  const { auth } = options;
  if (auth.kind === 'token') {
    const client = new RelayOctokit({ ...base, auth: auth.token });
    return {
      forRepo: async () => client,
      learnInstallation: () => undefined,
      forgetRepo: () => undefined,
    };
  }

  const tokenCache = createTokenCache({ clock: options.clock });
  const appAuth = { appId: auth.appId, privateKey: auth.privateKey, cache: tokenCache };
  const appClient = new RelayOctokit({ ...base, authStrategy: createAppAuth, auth: appAuth });
  const perInstallation = new Map<number, RelayOctokit>();
  const installations: InstallationIds = createInstallationIds({
    clock: options.clock,
    lookup:
      options.installationIdFor ??
      (async (owner, repo) =>
        (await appClient.rest.apps.getRepoInstallation({ owner, repo })).data.id),
  });

  return {
    async forRepo(owner, repo) {
      const installationId = await installations.get(owner, repo);
      let client = perInstallation.get(installationId);
      if (client === undefined) {
        client = new RelayOctokit({
          ...base,
          authStrategy: createAppAuth,
          auth: { ...appAuth, installationId },
        });
        perInstallation.set(installationId, client);
      }
      return client;
    },
    learnInstallation: (owner, repo, installationId) =>
      installations.learn(owner, repo, installationId),
    forgetRepo: (owner, repo) => installations.forget(owner, repo),
    tokenCache,
  };
}
