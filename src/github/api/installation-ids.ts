/**
 * Which App installation serves a repository. The notifier needs it at delivery time (the
 * outbox may deliver after a restart), and a thread key names only the repository, so the
 * id is looked up with the App's JWT (`GET /repos/{owner}/{repo}/installation`) and cached
 * per repository. The ingress may seed the cache from a webhook's `installation.id`, which
 * saves the lookup.
 */
import type { Clock } from '../../core/ports/index.js';

export interface InstallationIds {
  get(owner: string, repo: string): Promise<number>;
  learn(owner: string, repo: string, installationId: number): void;
  /** Forget a repository (its installation may have been removed or replaced). */
  forget(owner: string, repo: string): void;
}

export interface InstallationIdsDeps {
  lookup(owner: string, repo: string): Promise<number>;
  clock: Clock;
  /** How long an id is trusted. Default 1 hour. */
  ttlMs?: number;
}

export function createInstallationIds(deps: InstallationIdsDeps): InstallationIds {
  const ttlMs = deps.ttlMs ?? 60 * 60_000;
  const known = new Map<string, { id: number; until: number }>();
  const pending = new Map<string, Promise<number>>();
  const keyOf = (owner: string, repo: string): string => `${owner}/${repo}`.toLowerCase();

  return {
    async get(owner, repo) {
      const key = keyOf(owner, repo);
      const hit = known.get(key);
      if (hit !== undefined && hit.until > deps.clock.now()) return hit.id;
      const inFlight = pending.get(key);
      if (inFlight !== undefined) return inFlight;
      const lookup = deps
        .lookup(owner, repo)
        .then((id) => {
          known.set(key, { id, until: deps.clock.now() + ttlMs });
          return id;
        })
        .finally(() => pending.delete(key));
      pending.set(key, lookup);
      return lookup;
    },
    learn(owner, repo, installationId) {
      known.set(keyOf(owner, repo), { id: installationId, until: deps.clock.now() + ttlMs });
    },
    forget(owner, repo) {
      known.delete(keyOf(owner, repo));
    },
  };
}
