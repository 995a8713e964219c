/**
 * Linear workspaces the app was installed in (OAuth, `actor=app`): the grant of each (access
 * token, and where Linear gave them, refresh token and expiry), sealed before it reaches the
 * store (AES-256-GCM with LINEAR_TOKEN_ENCRYPTION_KEY, bound to the organization id), opened
 * when the notifier writes into that workspace.
 *
 * Linear's access tokens expire (24 hours) and come with a refresh token that is spent by its
 * use. So a token is refreshed shortly before its expiry, or when Linear refuses it, and the
 * new pair replaces the old by a compare-and-set on the sealed row. One refresh at a time per
 * workspace: in this process by sharing the refresh under way, across replicas by a lease in
 * the store, so two replicas never spend the same refresh token; one that finds the lease held
 * waits for the new pair instead.
 */
import { randomUUID } from 'node:crypto';
import type { Clock, InstallationRepo, Logger, Store } from '../../core/ports/index.js';
import { systemClock } from '../../core/ports/index.js';
import { refreshGrant, type LinearGrant } from '../api/oauth.js';

export interface TokenSeal {
  seal(plain: string, associated: string): string;
  open(sealed: string, associated: string): string;
}

export interface LinearInstallations {
  save(
    input: {
      organizationId: string;
      token: string;
      refreshToken?: string;
      expiresAt?: number;
      installedBy?: string;
    },
    now: number,
  ): Promise<void>;
  /** The workspace's access token, refreshed first when it expires within a few minutes. */
  tokenFor(organizationId: string): Promise<string | undefined>;
  /**
   * Linear refused `rejected`: a newer token for the workspace (refreshed now, or already by
   * another replica), or undefined when there is none to be had.
   */
  renew(organizationId: string, rejected: string): Promise<string | undefined>;
}

/** Refresh this long before the expiry Linear gave. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** How long one replica may hold a workspace's refresh (its two requests time out at 10 s). */
const REFRESH_LEASE_MS = 30_000;
/** A replica that finds another refreshing looks for the new pair this often, this many times. */
const WAIT_STEP_MS = 200;
const WAIT_STEPS = 75;

const key = (organizationId: string) => ({
  platform: 'linear' as const,
  enterpriseId: '',
  teamId: organizationId,
});

/** The sealed text: the grant as JSON; an install from before refresh tokens is the bare token. */
function encode(grant: LinearGrant): string {
  return JSON.stringify(grant);
}

function decode(plain: string): LinearGrant | undefined {
  if (!plain.startsWith('{')) return plain ? { accessToken: plain } : undefined;
  try {
    const v = JSON.parse(plain) as Partial<Record<keyof LinearGrant, unknown>>;
    if (typeof v.accessToken !== 'string') return undefined;
    return {
      accessToken: v.accessToken,
      ...(typeof v.refreshToken === 'string' ? { refreshToken: v.refreshToken } : {}),
      ...(typeof v.expiresAt === 'number' ? { expiresAt: v.expiresAt } : {}),
    };
  } catch {
    return undefined;
  }
}

export function createLinearInstallations(deps: {
  repo: InstallationRepo;
  cipher: TokenSeal;
  logger: Logger;
  clock?: Clock;
  /** The OAuth client, to refresh tokens with; without it a token is used until refused. */
  client?: { apiUrl: string; clientId: string; clientSecret: string };
  /** The store's leases: one replica refreshes a workspace's token at a time. */
  leases?: Store['leases'];
}): LinearInstallations {
  const log = deps.logger.child({ component: 'linear-installations' });
  const clock = deps.clock ?? systemClock;
  const holder = `linear-refresh-${randomUUID()}`;
  const underWay = new Map<string, Promise<string | undefined>>();
  const bound = (organizationId: string) => `linear:${organizationId}`;

  async function read(
    organizationId: string,
  ): Promise<{ sealed: string; grant: LinearGrant } | undefined> {
    const record = await deps.repo.get(key(organizationId));
    if (!record) return undefined;
    let grant: LinearGrant | undefined;
    try {
      grant = decode(deps.cipher.open(record.sealed, bound(organizationId)));
    } catch (err) {
      log.error(
        { organizationId, err: (err as Error).message },
        'cannot open a sealed Linear token',
      );
      return undefined;
    }
    if (!grant) log.error({ organizationId }, 'a sealed Linear token holds no access token');
    return grant ? { sealed: record.sealed, grant } : undefined;
  }

  const dueForRefresh = (grant: LinearGrant, now: number) =>
    grant.refreshToken !== undefined &&
    grant.expiresAt !== undefined &&
    now >= grant.expiresAt - REFRESH_MARGIN_MS;

  /** Under the lease: refresh unless someone already did; the token to use. */
  async function refreshHeld(organizationId: string, stale: string): Promise<string | undefined> {
    const current = await read(organizationId);
    if (!current) return undefined;
    const { grant } = current;
    if (grant.accessToken !== stale && !dueForRefresh(grant, clock.now())) return grant.accessToken;
    if (!grant.refreshToken || !deps.client) return undefined;
    const now = clock.now();
    const got = await refreshGrant({ ...deps.client, refreshToken: grant.refreshToken, now });
    if ('error' in got) {
      log.error(
        { organizationId, error: got.error },
        'Linear refused to refresh the workspace token; install the app there again',
      );
      return undefined;
    }
    const next: LinearGrant = {
      ...got,
      // Linear answers a new refresh token; were one missing, the old one still stands.
      ...(got.refreshToken ? {} : { refreshToken: grant.refreshToken }),
    };
    const sealed = deps.cipher.seal(encode(next), bound(organizationId));
    const replaced = await deps.repo.replaceSealed(
      key(organizationId),
      current.sealed,
      sealed,
      now,
    );
    if (!replaced)
      log.warn({ organizationId }, 'the Linear installation changed while its token was refreshed');
    else log.info({ organizationId }, 'refreshed the Linear workspace token');
    return got.accessToken;
  }

  async function refresh(organizationId: string, stale: string): Promise<string | undefined> {
    const name = `linear-token-refresh:${organizationId}`;
    for (let step = 0; step < WAIT_STEPS; step += 1) {
      const current = await read(organizationId);
      if (!current) return undefined;
      if (current.grant.accessToken !== stale && !dueForRefresh(current.grant, clock.now()))
        return current.grant.accessToken;
      if (!current.grant.refreshToken || !deps.client) return undefined;
      const held = deps.leases
        ? await deps.leases.acquire(name, holder, clock.now(), REFRESH_LEASE_MS)
        : { epoch: 0 };
      if (held) {
        try {
          return await refreshHeld(organizationId, stale);
        } finally {
          await deps.leases?.release(name, holder);
        }
      }
      // Another replica refreshes: its new pair will be in the store.
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
    log.warn({ organizationId }, 'gave up waiting for another replica to refresh the Linear token');
    return undefined;
  }

  function renew(organizationId: string, stale: string): Promise<string | undefined> {
    let pending = underWay.get(organizationId);
    if (!pending) {
      pending = refresh(organizationId, stale)
        .catch((err: unknown) => {
          log.error(
            { organizationId, err: (err as Error).message },
            'could not refresh the Linear workspace token',
          );
          return undefined;
        })
        .finally(() => underWay.delete(organizationId));
      underWay.set(organizationId, pending);
    }
    return pending;
  }

  return {
    async save(input, now) {
      const grant: LinearGrant = {
        accessToken: input.token,
        ...(input.refreshToken ? { refreshToken: input.refreshToken } : {}),
        ...(input.expiresAt === undefined ? {} : { expiresAt: input.expiresAt }),
      };
      await deps.repo.save(
        {
          ...key(input.organizationId),
          isEnterpriseInstall: false,
          sealed: deps.cipher.seal(encode(grant), bound(input.organizationId)),
          ...(input.installedBy ? { installedBy: input.installedBy } : {}),
        },
        now,
      );
    },
    async tokenFor(organizationId) {
      const current = await read(organizationId);
      if (!current) return undefined;
      if (!dueForRefresh(current.grant, clock.now())) return current.grant.accessToken;
      // Due: the new token, or the old while it lasts when the refresh did not work.
      return (await renew(organizationId, current.grant.accessToken)) ?? current.grant.accessToken;
    },
    async renew(organizationId, rejected) {
      const fresh = await renew(organizationId, rejected);
      return fresh === rejected ? undefined : fresh;
    },
  };
}
