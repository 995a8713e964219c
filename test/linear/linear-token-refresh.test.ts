/**
 * Linear's OAuth access tokens expire after 24 hours and come with a refresh token that a
 * refresh spends (Linear's OAuth 2.0 authentication docs,
 * https://linear.app/developers/oauth-2-0-authentication, "Token lifetimes and renewal"; the
 * fake Linear issues and refuses tokens that way). An installed workspace keeps working past the expiry: the relay refreshes
 * before using a token due to expire, or once Linear refused one, and keeps the new pair; two
 * replicas never spend one refresh token twice.
 */
import { describe, expect, it } from 'vitest';
import { startFakeLinear } from '../../src/fakes/linear-graphql-api.js';
import { createLinearInstallations } from '../../src/linear/index.js';
import { createTokenCipher } from '../../src/platform/token-cipher.js';
import { captureLogs } from '../helpers/log-capture.js';
import { installLinear, LINEAR_TOKEN_KEY, startLinearWorld } from '../helpers/linear.js';
import { worldPerTest } from '../helpers/world-per-test.js';
import { createSqliteHarness, harnessPer } from '../store/harness.js';

const DAY_MS = 24 * 60 * 60_000;

// No token the relay held ever reaches its log.
const startWorld = worldPerTest(startLinearWorld, (w) => {
  for (const g of w.linear.oauthGrants) {
    expect(w.logs.text()).not.toContain(g.accessToken);
    expect(w.logs.text()).not.toContain(g.refreshToken);
  }
});
const startLinear = worldPerTest(startFakeLinear);
const sqlite = harnessPer(createSqliteHarness);

/**
 * The system's time plus an offset a test moves. The relay's clock starts a day and more in
 * the past and comes back to the present, so runs the emulator starts look new to the tracker.
 */
function movableClock(start = 0) {
  let offset = start;
  return { now: () => Date.now() + offset, advance: (ms: number) => (offset += ms) };
}

describe('a Linear install after its access token expired', () => {
  it('refreshes the token before using it, and a run still posts its activities', async () => {
    const clock = movableClock(-2 * DAY_MS - 60_000);
    const world = await startWorld({ oauthOrganizations: ['org-acme'], clock });
    expect((await installLinear(world, 0)).status).toBe(200);
    const { linear: fake } = world;
    const [first] = fake.oauthGrants;
    expect(first).toBeDefined();
    clock.advance(DAY_MS + 60_000);
    expect(fake.ownerOf(`Bearer ${first!.accessToken}`)).toBe('expired');

    const { session } = await fake.openSession({ workspace: 0 });
    await world.waitForActivity(session.id, (a) => a.content.type === 'response');
    expect(fake.oauthRefreshes).toEqual([{ refreshToken: first!.refreshToken, ok: true }]);
    const second = fake.oauthGrants[1]!;
    const writes = fake.requests.filter((r) => r.operation === 'AgentActivityCreate');
    expect(writes.length).toBeGreaterThan(0);
    for (const r of writes) expect(r.authorization).toBe(`Bearer ${second.accessToken}`);

    // The new pair was kept: a day later the next refresh spends the new refresh token.
    clock.advance(DAY_MS);
    expect(clock.now()).toBeLessThanOrEqual(Date.now());
    const next = await fake.openSession({ workspace: 0 });
    await world.waitForActivity(next.session.id, (a) => a.content.type === 'response');
    expect(fake.oauthRefreshes.map((r) => r.refreshToken)).toEqual([
      first!.refreshToken,
      second.refreshToken,
    ]);
    expect(fake.oauthRefreshes.every((r) => r.ok)).toBe(true);
  });

  it('refreshes once Linear refuses a token it thought still good, and posts again', async () => {
    // Linear's clock is a day ahead of the relay's: the relay sees no expiry coming.
    const linearClock = movableClock();
    const world = await startWorld({
      oauthOrganizations: ['org-acme'],
      clock: { now: () => Date.now() },
      linearClock,
    });
    expect((await installLinear(world, 0)).status).toBe(200);
    const { linear: fake } = world;
    linearClock.advance(DAY_MS + 60_000);
    const { session } = await fake.openSession({ workspace: 0 });
    await world.waitForActivity(session.id, (a) => a.content.type === 'response');
    expect(fake.oauthRefreshes).toEqual([
      { refreshToken: fake.oauthGrants[0]!.refreshToken, ok: true },
    ]);
    const refused = fake.requests.filter(
      (r) => r.authorization === `Bearer ${fake.oauthGrants[0]!.accessToken}`,
    );
    expect(refused.length).toBeGreaterThan(0);
  });
});

describe('two replicas refreshing one workspace token', () => {
  it('spend its refresh token once, and both use the new access token', async () => {
    const linear = await startLinear();
    let now = Date.now();
    const clock = { now: () => now };
    const cipher = createTokenCipher(LINEAR_TOKEN_KEY);
    const replica = async () => {
      const store = await sqlite.open({ checkpointIntervalMs: 0 });
      return createLinearInstallations({
        repo: store.installations,
        cipher,
        logger: captureLogs().logger,
        clock,
        client: {
          apiUrl: linear.url,
          clientId: linear.oauthClient.id,
          clientSecret: linear.oauthClient.secret,
        },
        leases: store.leases,
      });
    };
    const a = await replica();
    const b = await replica();
    // An install as the redirect keeps it: the code exchange's pair.
    linear.authorizeAs(0);
    const code = await fetch(
      `${linear.authorizeUrl}?redirect_uri=${encodeURIComponent('http://127.0.0.1/back')}&state=s`,
      { redirect: 'manual' },
    );
    const granted = await fetch(new URL('/oauth/token', linear.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: new URL(code.headers.get('location')!).searchParams.get('code')!,
        redirect_uri: 'http://127.0.0.1/back',
        client_id: linear.oauthClient.id,
        client_secret: linear.oauthClient.secret,
      }),
    });
    const pair = (await granted.json()) as {
      access_token: string;
      refresh_token: string;
      expires_in: number;
    };
    await a.save(
      {
        organizationId: 'org-acme',
        token: pair.access_token,
        refreshToken: pair.refresh_token,
        expiresAt: now + pair.expires_in * 1000,
      },
      now,
    );
    expect(await b.tokenFor('org-acme')).toBe(pair.access_token);

    now += DAY_MS;
    const [fromA, fromB] = await Promise.all([a.tokenFor('org-acme'), b.tokenFor('org-acme')]);
    expect(linear.oauthRefreshes).toEqual([{ refreshToken: pair.refresh_token, ok: true }]);
    const fresh = linear.oauthGrants[1]!.accessToken;
    expect(fromA).toBe(fresh);
    expect(fromB).toBe(fresh);
    // A token refused after that: the one already refreshed is the answer, no second refresh.
    expect(await b.renew('org-acme', pair.access_token)).toBe(fresh);
    expect(linear.oauthRefreshes).toHaveLength(1);
  });
});
