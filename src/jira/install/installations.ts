/**
 * The Jira sites the OAuth app is installed on, one record per site (its host name): the
 * site's cloud id, the account that installed it (the relay acts as that account) and the
 * app's webhooks there; and one token pair per installing account, which serves every site
 * that account granted (one consent's token reaches all of them, and its refresh token is
 * one chain: two copies would disable each other). Both are sealed before they reach the
 * store (AES-256-GCM with JIRA_TOKEN_ENCRYPTION_KEY, bound to the site or the account).
 *
 * Atlassian's access tokens last an hour and its refresh tokens rotate (each use disables the
 * one used): platform/token-refresh.ts refreshes an account's, and the new pair replaces the
 * old by a compare-and-set on the sealed row.
 */
import type { Clock, InstallationRepo, Logger, Store } from '../../core/ports/index.js';
import { systemClock } from '../../core/ports/index.js';
import type { TokenCipher } from '../../platform/token-cipher.js';
import { createTokenRefresh } from '../../platform/token-refresh.js';
import { refreshGrant, type JiraGrant, type JiraOAuthClient } from '../api/oauth.js';

/** What the relay keeps of a site it is installed on. */
export interface JiraSiteInstall {
  cloudId: string;
  /** The site's root (`https://acme.atlassian.net`). */
  url: string;
  /** The account that installed the app: the relay's account on that site. */
  accountId: string;
  /** The app's webhooks on the site, and when they expire (epoch ms). */
  webhookIds?: number[];
  webhooksExpireAt?: number;
}

export interface JiraInstallations {
  /** Keep an account's newest grant (it replaces the one before). */
  saveGrant(accountId: string, grant: JiraGrant, now: number): Promise<void>;
  save(site: string, install: JiraSiteInstall, now: number): Promise<void>;
  get(site: string): Promise<JiraSiteInstall | undefined>;
  /** Change what is kept of a site (not its tokens) if it is still there. */
  update(site: string, change: Partial<JiraSiteInstall>): Promise<void>;
  /** The site's access token, refreshed first when it expires within a few minutes. */
  tokenFor(site: string): Promise<string | undefined>;
  /** Jira refused `rejected`: a newer token, or undefined when there is none to be had. */
  renew(site: string, rejected: string): Promise<string | undefined>;
}

const siteKey = (site: string) => ({ platform: 'jira' as const, enterpriseId: '', teamId: site });
const grantKey = (accountId: string) => ({
  platform: 'jira' as const,
  enterpriseId: 'grant',
  teamId: accountId,
});

function parse<T>(plain: string, valid: (v: Partial<T>) => boolean): T | undefined {
  try {
    const v = JSON.parse(plain) as Partial<T>;
    return v !== null && typeof v === 'object' && valid(v) ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}

export function createJiraInstallations(deps: {
  repo: InstallationRepo;
  cipher: TokenCipher;
  client: JiraOAuthClient;
  logger: Logger;
  clock?: Clock;
  leases?: Store['leases'];
}): JiraInstallations {
  const log = deps.logger.child({ component: 'jira-installations' });
  const clock = deps.clock ?? systemClock;

  /** A sealed record, opened; undefined when missing or not opening (logged). */
  async function open<T>(
    key: { platform: 'jira'; enterpriseId: string; teamId: string },
    bound: string,
    valid: (v: Partial<T>) => boolean,
  ): Promise<{ sealed: string; value: T } | undefined> {
    const record = await deps.repo.get(key);
    if (!record) return undefined;
    let value: T | undefined;
    try {
      value = parse<T>(deps.cipher.open(record.sealed, bound), valid);
    } catch (err) {
      log.error({ bound, err: (err as Error).message }, 'cannot open a sealed Jira installation');
      return undefined;
    }
    if (!value) log.error({ bound }, 'a sealed Jira installation holds nothing usable');
    return value ? { sealed: record.sealed, value } : undefined;
  }

  const readSite = (site: string) =>
    open<JiraSiteInstall>(
      siteKey(site),
      `jira:${site}`,
      (v) =>
        typeof v.cloudId === 'string' &&
        typeof v.accountId === 'string' &&
        typeof v.url === 'string',
    );
  const read = (accountId: string) =>
    open<JiraGrant>(
      grantKey(accountId),
      `jira-grant:${accountId}`,
      (v) => typeof v.accessToken === 'string',
    );

  const tokens = createTokenRefresh<JiraGrant>({
    platform: 'jira',
    clock,
    log,
    ...(deps.leases ? { leases: deps.leases } : {}),
    canRefresh: true,
    read,
    logKey: (accountId) => ({ accountId }),
    says: {
      gaveUp: 'gave up waiting for another replica to refresh the Jira token',
      failed: 'could not refresh the Jira token',
    },
    async refresh(account, current, refreshToken) {
      const now = clock.now();
      const got = await refreshGrant(deps.client, refreshToken, now);
      if ('error' in got) {
        log.error(
          { accountId: account, error: got.error },
          "Atlassian refused to refresh the account's token; install the app again",
        );
        return undefined;
      }
      const next: JiraGrant = {
        ...got,
        // Atlassian answers a new refresh token; were one missing, the old one still stands.
        ...(got.refreshToken ? {} : { refreshToken }),
      };
      const sealed = deps.cipher.seal(JSON.stringify(next), `jira-grant:${account}`);
      if (!(await deps.repo.replaceSealed(grantKey(account), current.sealed, sealed, now)))
        log.warn({ accountId: account }, 'the Jira grant changed while its token was refreshed');
      else log.info({ accountId: account }, 'refreshed the Jira token');
      return got.accessToken;
    },
  });

  return {
    async saveGrant(accountId, grant, now) {
      await deps.repo.save(
        {
          ...grantKey(accountId),
          isEnterpriseInstall: false,
          sealed: deps.cipher.seal(JSON.stringify(grant), `jira-grant:${accountId}`),
          installedBy: accountId,
        },
        now,
      );
    },
    async save(site, install, now) {
      await deps.repo.save(
        {
          ...siteKey(site),
          isEnterpriseInstall: false,
          sealed: deps.cipher.seal(JSON.stringify(install), `jira:${site}`),
          installedBy: install.accountId,
        },
        now,
      );
    },
    async get(site) {
      return (await readSite(site))?.value;
    },
    async update(site, change) {
      const current = await readSite(site);
      if (!current) return;
      const next = { ...current.value, ...change };
      const sealed = deps.cipher.seal(JSON.stringify(next), `jira:${site}`);
      await deps.repo.replaceSealed(siteKey(site), current.sealed, sealed, clock.now());
    },
    async tokenFor(site) {
      const install = (await readSite(site))?.value;
      return install ? tokens.tokenFor(install.accountId) : undefined;
    },
    async renew(site, rejected) {
      const install = (await readSite(site))?.value;
      return install ? tokens.renew(install.accountId, rejected) : undefined;
    },
  };
}
