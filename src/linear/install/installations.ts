/**
 * Linear workspaces the app was installed in (OAuth, `actor=app`): the grant of each (access
 * token, and where Linear gave them, refresh token and expiry), sealed before it reaches the
 * store (AES-256-GCM with LINEAR_TOKEN_ENCRYPTION_KEY, bound to the organization id), opened
 * when the notifier writes into that workspace.
 *
 * Linear's access tokens expire (24 hours) and come with a refresh token that is spent by its
 * use: platform/token-refresh.ts refreshes them, and the new pair replaces the old by a
 * compare-and-set on the sealed row.
 */
import type { Clock, InstallationRepo, Logger, Store } from '../../core/ports/index.js';
import { systemClock } from '../../core/ports/index.js';
import { createTokenRefresh, type SealedGrant } from '../../platform/token-refresh.js';
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
  const bound = (organizationId: string) => `linear:${organizationId}`;

  async function read(organizationId: string): Promise<SealedGrant<LinearGrant> | undefined> {
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
    return grant ? { sealed: record.sealed, value: grant } : undefined;
  }

  const tokens = createTokenRefresh<LinearGrant>({
    platform: 'linear',
    clock,
    log,
    ...(deps.leases ? { leases: deps.leases } : {}),
    canRefresh: deps.client !== undefined,
    read,
    logKey: (organizationId) => ({ organizationId }),
    says: {
      gaveUp: 'gave up waiting for another replica to refresh the Linear token',
      failed: 'could not refresh the Linear workspace token',
    },
    async refresh(organizationId, current, refreshToken) {
      if (!deps.client) return undefined;
      const now = clock.now();
      const got = await refreshGrant({ ...deps.client, refreshToken, now });
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
        ...(got.refreshToken ? {} : { refreshToken }),
      };
      const sealed = deps.cipher.seal(encode(next), bound(organizationId));
      const replaced = await deps.repo.replaceSealed(
        key(organizationId),
        current.sealed,
        sealed,
        now,
      );
      if (!replaced)
        log.warn(
          { organizationId },
          'the Linear installation changed while its token was refreshed',
        );
      else log.info({ organizationId }, 'refreshed the Linear workspace token');
      return got.accessToken;
    },
  });

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
    tokenFor: tokens.tokenFor,
    renew: tokens.renew,
  };
}
