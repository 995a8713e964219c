/**
 * An installation's OAuth grant whose refresh token is spent by its use (Jira, Linear): the
 * token is refreshed a few minutes before its expiry, or when the platform refuses it. One
 * refresh at a time per grant: in this process by sharing the refresh under way, across
 * replicas by a lease in the store, so two replicas never spend the same refresh token; one
 * that finds the lease held waits for the new pair instead.
 */
import { randomUUID } from 'node:crypto';
import type { Clock, Logger, Store } from '../core/ports/index.js';

/** Refresh this long before the expiry the platform gave. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** How long one replica may hold a grant's refresh (its two requests time out at 10 s). */
const REFRESH_LEASE_MS = 30_000;
/** A replica that finds another refreshing looks for the new pair this often, this many times. */
const WAIT_STEP_MS = 200;
const WAIT_STEPS = 75;

export interface RefreshableGrant {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: number;
}

/**
 * A token endpoint's answer (RFC 6749, section 5.1) read as a grant: the access token, the
 * refresh token where one came, the expiry from `expires_in`; or the error it gave when the
 * answer was not `ok` or has no access token.
 */
export function grantOfAnswer(
  ok: boolean,
  status: number,
  answer: Record<string, unknown>,
  now: number,
): RefreshableGrant | { error: string } {
  if (!ok || typeof answer.access_token !== 'string')
    return { error: typeof answer.error === 'string' ? answer.error : `status ${status}` };
  const expiresIn = answer.expires_in;
  return {
    accessToken: answer.access_token,
    ...(typeof answer.refresh_token === 'string' && answer.refresh_token
      ? { refreshToken: answer.refresh_token }
      : {}),
    ...(typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0
      ? { expiresAt: now + expiresIn * 1000 }
      : {}),
  };
}

/** A grant as the store holds it: sealed (to replace it by a compare-and-set) and opened. */
export interface SealedGrant<G extends RefreshableGrant> {
  sealed: string;
  value: G;
}

export function createTokenRefresh<G extends RefreshableGrant>(deps: {
  /** Names the lease (`<platform>-token-refresh:<key>`) and this process's hold on it. */
  platform: string;
  clock: Clock;
  log: Logger;
  leases?: Store['leases'];
  /** Whether a refresh can be sent at all (an OAuth client to send it with). */
  canRefresh: boolean;
  read: (key: string) => Promise<SealedGrant<G> | undefined>;
  /** Under the lease: send the refresh, store the new pair; the token to use. */
  refresh: (
    key: string,
    current: SealedGrant<G>,
    refreshToken: string,
  ) => Promise<string | undefined>;
  /** What a log line names the grant by (`{ accountId }`). */
  logKey: (key: string) => Record<string, string>;
  says: { gaveUp: string; failed: string };
}) {
  const { clock, log } = deps;
  const holder = `${deps.platform}-refresh-${randomUUID()}`;
  const underWay = new Map<string, Promise<string | undefined>>();

  const due = (g: G, now: number) =>
    g.refreshToken !== undefined &&
    g.expiresAt !== undefined &&
    now >= g.expiresAt - REFRESH_MARGIN_MS;

  /** Under the lease: refresh unless someone already did; the token to use. */
  async function refreshHeld(key: string, stale: string): Promise<string | undefined> {
    const current = await deps.read(key);
    if (!current) return undefined;
    const grant = current.value;
    if (grant.accessToken !== stale && !due(grant, clock.now())) return grant.accessToken;
    if (!grant.refreshToken || !deps.canRefresh) return undefined;
    return deps.refresh(key, current, grant.refreshToken);
  }

  async function refresh(key: string, stale: string): Promise<string | undefined> {
    const name = `${deps.platform}-token-refresh:${key}`;
    for (let step = 0; step < WAIT_STEPS; step += 1) {
      const current = await deps.read(key);
      if (!current) return undefined;
      if (current.value.accessToken !== stale && !due(current.value, clock.now()))
        return current.value.accessToken;
      if (!current.value.refreshToken || !deps.canRefresh) return undefined;
      const held = deps.leases
        ? await deps.leases.acquire(name, holder, clock.now(), REFRESH_LEASE_MS)
        : { epoch: 0 };
      if (held) {
        try {
          return await refreshHeld(key, stale);
        } finally {
          await deps.leases?.release(name, holder);
        }
      }
      // Another replica refreshes: its new pair will be in the store.
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
    log.warn(deps.logKey(key), deps.says.gaveUp);
    return undefined;
  }

  function renew(key: string, stale: string): Promise<string | undefined> {
    let pending = underWay.get(key);
    if (!pending) {
      pending = refresh(key, stale)
        .catch((err: unknown) => {
          log.error({ ...deps.logKey(key), err: (err as Error).message }, deps.says.failed);
          return undefined;
        })
        .finally(() => underWay.delete(key));
      underWay.set(key, pending);
    }
    return pending;
  }

  return {
    /** The grant's access token, refreshed first when it expires within a few minutes. */
    async tokenFor(key: string): Promise<string | undefined> {
      const current = await deps.read(key);
      if (!current) return undefined;
      if (!due(current.value, clock.now())) return current.value.accessToken;
      // Due: the new token, or the old while it lasts when the refresh did not work.
      return (await renew(key, current.value.accessToken)) ?? current.value.accessToken;
    },
    /** The platform refused `rejected`: a newer token, or undefined when there is none. */
    async renew(key: string, rejected: string): Promise<string | undefined> {
      const fresh = await renew(key, rejected);
      return fresh === rejected ? undefined : fresh;
    },
  };
}
