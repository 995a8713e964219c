/**
 * An OAuth app's Jira token lasts an hour and its refresh token rotates (Atlassian's "refresh
 * token flow"; the fake Atlassian issues and refuses tokens that way). The relay refreshes a
 * token a few minutes before it expires, before using it, and two replicas spend one refresh
 * token once, both then using the new access token. The app's webhooks on a site, which Jira
 * lets lapse after 30 days, are extended when less than a week is left, and registered again
 * where there are none.
 */
import { describe, expect, it } from 'vitest';
import {
  FAKE_JIRA_CLIENT_ID,
  FAKE_JIRA_CLIENT_SECRET,
  startFakeAtlassian,
} from '../../src/fakes/atlassian-oauth.js';
import {
  createJiraInstallations,
  exchangeCode,
  installedSites,
  keepSiteWebhooks,
  type JiraInstallations,
} from '../../src/jira/index.js';
import { createTokenCipher } from '../../src/platform/token-cipher.js';
import { captureLogs } from '../helpers/log-capture.js';
import { worldPerTest } from '../helpers/world-per-test.js';
import { createSqliteHarness, harnessPer } from '../store/harness.js';

const sqlite = harnessPer(createSqliteHarness);
const startAtlassian = worldPerTest(startFakeAtlassian);
const cipher = createTokenCipher(Buffer.alloc(32, 9).toString('base64'));

/** The fake Atlassian with the site acme.atlassian.net, and the app's OAuth client there. */
async function acmeSite() {
  const atlassian = await startAtlassian();
  const site = atlassian.addSite('acme.atlassian.net');
  const client = {
    authUrl: atlassian.url,
    apiUrl: atlassian.url,
    clientId: FAKE_JIRA_CLIENT_ID,
    clientSecret: FAKE_JIRA_CLIENT_SECRET,
  };
  return { atlassian, site, client };
}

/**
 * A consent to `scope` (URL-encoded) on the fake Atlassian and the code exchanged as the
 * redirect does; the grant and acme.atlassian.net kept in `installations`. The grant.
 */
async function install(
  { atlassian, site, client }: Awaited<ReturnType<typeof acmeSite>>,
  installations: JiraInstallations,
  scope: string,
  now: number,
) {
  const consent = await fetch(
    `${atlassian.url}/authorize?audience=api.atlassian.com&client_id=${FAKE_JIRA_CLIENT_ID}` +
      `&scope=${scope}&redirect_uri=${encodeURIComponent('http://127.0.0.1/back')}&state=s&response_type=code`,
    { redirect: 'manual' },
  );
  const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
  const grant = await exchangeCode(client, { code, redirectUri: 'http://127.0.0.1/back', now });
  if ('error' in grant) throw new Error(grant.error);
  await installations.saveGrant('account-1', grant, now);
  await installations.save(
    'acme.atlassian.net',
    { cloudId: site.cloudId, url: site.url, accountId: 'account-1' },
    now,
  );
  return grant;
}

describe('two replicas refreshing one Jira token', () => {
  it('refresh it before it expires, spend the refresh token once, and share the new token', async () => {
    const acme = await acmeSite();
    const { atlassian, client } = acme;
    let now = Date.now();
    const clock = { now: () => now };
    const replica = async () => {
      const store = await sqlite.open({ checkpointIntervalMs: 0 });
      return createJiraInstallations({
        repo: store.installations,
        cipher,
        client,
        logger: captureLogs().logger,
        clock,
        leases: store.leases,
      });
    };
    const a = await replica();
    const b = await replica();
    // A consent, and the code exchanged as the redirect does.
    const grant = await install(acme, a, 'read%3Ajira-work%20offline_access', now);
    expect(await b.tokenFor('acme.atlassian.net')).toBe(grant.accessToken);
    expect(atlassian.tokenRequests.map((t) => t.grant_type)).toEqual(['authorization_code']);

    // 57 minutes on, with the token still good: refreshed first, once for both replicas.
    now += 57 * 60_000;
    const [fromA, fromB] = await Promise.all([
      a.tokenFor('acme.atlassian.net'),
      b.tokenFor('acme.atlassian.net'),
    ]);
    expect(atlassian.tokenRequests.map((t) => t.grant_type)).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    expect(fromA).not.toBe(grant.accessToken);
    expect(fromB).toBe(fromA);
    // The rotated refresh token was spent: the old one no longer refreshes anything.
    const again = await fetch(`${atlassian.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'refresh_token',
        refresh_token: grant.refreshToken,
        client_id: FAKE_JIRA_CLIENT_ID,
        client_secret: FAKE_JIRA_CLIENT_SECRET,
      }),
    });
    expect(again.status).toBe(403);
    // A site the grant does not know: nothing.
    expect(await a.tokenFor('globex.atlassian.net')).toBeUndefined();
  });
});

describe("the app's webhooks on a site", () => {
  it('are extended when less than a week is left, and registered again when gone', async () => {
    const acme = await acmeSite();
    const { atlassian, site, client } = acme;
    const store = await sqlite.open({ checkpointIntervalMs: 0 });
    let now = Date.now();
    const logger = captureLogs().logger;
    const installations = createJiraInstallations({
      repo: store.installations,
      cipher,
      client,
      logger,
      clock: { now: () => now },
    });
    await install(
      acme,
      installations,
      'manage%3Ajira-webhook%20read%3Ajira-work%20offline_access',
      now,
    );
    const served = await installedSites({
      allowedSites: ['acme.atlassian.net'],
      installations,
      apiUrl: atlassian.url,
    }).resolve('acme.atlassian.net');
    const keep = () =>
      keepSiteWebhooks({
        site: 'acme.atlassian.net',
        client: served!.client,
        installations,
        webhookUrl: 'https://relay.example.com/jira/webhooks',
        projects: ['PROJ', 'OPS'],
        now,
        logger,
      });
    // None yet: registered, for the allowed projects.
    await keep();
    expect(site.registered).toEqual([
      expect.objectContaining({
        url: 'https://relay.example.com/jira/webhooks',
        jqlFilter: 'project IN ("PROJ", "OPS")',
      }),
    ]);
    const id = site.registered[0]!.id;
    const kept = await installations.get('acme.atlassian.net');
    expect(kept?.webhookIds).toEqual([id]);
    // A week on, nothing to do; 24 days on, extended (the same webhook).
    const pass = (ms: number) => {
      now += ms;
      atlassian.advance(ms);
    };
    pass(7 * 24 * 3600_000);
    await keep();
    expect(atlassian.requests.filter((r) => r.method === 'PUT')).toEqual([]);
    pass(17 * 24 * 3600_000);
    await keep();
    expect(atlassian.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(site.registered.map((w) => w.id)).toEqual([id]);
    expect((await installations.get('acme.atlassian.net'))!.webhooksExpireAt).toBeGreaterThan(
      now + 20 * 24 * 3600_000,
    );
  });
});
