/**
 * Jira Cloud through an OAuth 2.0 (3LO) app on many sites, end to end: the relay as
 * production wires it, a browser's install through the fake Atlassian authorization server,
 * and every later call through the fake API gateway (`/ex/jira/{cloudId}/…`): an allowed site
 * installs (its token sealed, the app's webhooks registered for the allowed projects), a site
 * off JIRA_ALLOWED_SITES is refused and nothing of it kept, a label starts a run answered
 * through the gateway, an expired token is refreshed (the rotating refresh token spent once),
 * and a webhook without the app's JWT changes nothing. A service account's scoped API token
 * (one site, basic auth) goes through the same gateway.
 */
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import {
  FAKE_JIRA_CLIENT_ID,
  FAKE_JIRA_CLIENT_SECRET,
  startFakeAtlassian,
  type FakeAtlassian,
  type FakeAtlassianSite,
} from '../../src/fakes/atlassian-oauth.js';
import {
  FAKE_JIRA_EMAIL,
  FAKE_JIRA_TOKEN,
  FAKE_JIRA_WEBHOOK_SECRET,
  PEOPLE,
  RELAY_ACCOUNT_ID,
} from '../../src/fakes/jira-rest-api.js';
import { createJiraWebhooks } from '../../src/fakes/jira-webhooks.js';
import { commentText } from '../helpers/jira.js';
import { captureLogs, type LogCapture } from '../helpers/log-capture.js';
import { QUICK_TIMINGS, startRelayService, type RelayService } from '../helpers/relay.js';
import { SECRETS } from '../helpers/secrets.js';
import { waitUntil } from '../helpers/wait-until.js';

const KEY = Buffer.alloc(32, 7).toString('base64');

interface World {
  relay: RelayService;
  atlassian: FakeAtlassian;
  acme: FakeAtlassianSite;
  globex: FakeAtlassianSite;
  emulator: Emulator;
  logs: LogCapture;
  close(): Promise<void>;
}

let world: World | undefined;
afterEach(async () => {
  const w = world;
  world = undefined;
  await w?.close();
});

/** The relay's Jira variables, for the fake Atlassian and its first site. */
type JiraEnv = (atlassian: FakeAtlassian, acme: FakeAtlassianSite) => Record<string, string>;

const OAUTH_ENV: JiraEnv = (atlassian) => ({
  JIRA_CLIENT_ID: FAKE_JIRA_CLIENT_ID,
  JIRA_CLIENT_SECRET: FAKE_JIRA_CLIENT_SECRET,
  JIRA_TOKEN_ENCRYPTION_KEY: KEY,
  JIRA_ALLOWED_SITES: 'acme.atlassian.net',
  JIRA_ALLOWED_PROJECTS: 'PROJ',
  JIRA_AUTH_URL: atlassian.url,
  JIRA_API_URL: atlassian.url,
});

async function startWorld(jiraEnv: JiraEnv = OAUTH_ENV): Promise<World> {
  const logs = captureLogs({ test: 'jira-oauth' });
  const emulator = await startEmulator({
    apiKey: SECRETS.agentApiKey,
    timings: QUICK_TIMINGS,
    tickMs: 10,
  });
  const atlassian = await startFakeAtlassian();
  const acme = atlassian.addSite('acme.atlassian.net');
  const globex = atlassian.addSite('globex.atlassian.net');
  const relay = await startRelayService(
    {
      AGENT_API_URL: emulator.baseUrl,
      AGENT_API_KEY: SECRETS.agentApiKey,
      POLL_INTERVAL_MS: '100',
      SHUTDOWN_TIMEOUT_MS: '2000',
      ...jiraEnv(atlassian, acme),
      LOG_LEVEL: 'debug',
    },
    {
      logger: logs.logger,
      engineOptions: { workerPollMs: 20, inboxRetryDelaysMs: [300, 300, 300, 300] },
    },
  );
  return {
    relay,
    atlassian,
    acme,
    globex,
    emulator,
    logs,
    async close() {
      await relay.close();
      await Promise.all([emulator.close(), atlassian.close()]);
    },
  };
}

/** A browser's install: the relay's page, Atlassian's consent, and back with the cookie. */
async function install(w: World, sites: FakeAtlassianSite[]) {
  w.atlassian.consent.sites = sites.map((s) => s.cloudId);
  const start = await fetch(`${w.relay.service.url}/jira/install`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const cookie = start.headers.get('set-cookie')!.split(';')[0]!;
  const consent = new URL(start.headers.get('location')!);
  expect(consent.origin).toBe(w.atlassian.url);
  const granted = await fetch(consent, { redirect: 'manual' });
  const back = granted.headers.get('location')!;
  const done = await fetch(back, { headers: { cookie } });
  return { status: done.status, text: await done.text(), back, cookie, consent };
}

function installations(path: string): { enterprise_id: string; team_id: string; sealed: string }[] {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    return db
      .prepare(`select enterprise_id, team_id, sealed from installations where platform = 'jira'`)
      .all() as { enterprise_id: string; team_id: string; sealed: string }[];
  } finally {
    db.close();
  }
}

async function waitForComment(site: FakeAtlassianSite, key: string, accept: RegExp) {
  await waitUntil(() => site.model.relayComments(key).some((c) => accept.test(commentText(c))), {
    timeoutMs: 10_000,
  });
  return site.model.relayComments(key).find((c) => accept.test(commentText(c)))!;
}

describe('Jira through an OAuth app on many sites', () => {
  it('installs on an allowed site: the consent asked, the token sealed, the webhooks registered', async () => {
    world = await startWorld();
    const done = await install(world, [world.acme]);
    expect(done.status).toBe(200);
    expect(done.text).toContain('installed on acme.atlassian.net');
    const asked = done.consent.searchParams;
    expect(asked.get('audience')).toBe('api.atlassian.com');
    expect(asked.get('scope')!.split(' ')).toEqual(
      expect.arrayContaining(['offline_access', 'manage:jira-webhook', 'write:jira-work']),
    );
    expect(asked.get('redirect_uri')).toBe(`${world.relay.service.url}/jira/oauth_redirect`);
    const rows = installations(world.relay.databasePath);
    expect(rows.map((r) => r.team_id).sort()).toEqual(
      ['acme.atlassian.net', expect.stringMatching(/relay/)].sort(),
    );
    const text = JSON.stringify(rows);
    expect(text).not.toMatch(/access-[0-9a-f]{24}/);
    expect(text).not.toMatch(/refresh-[0-9a-f]{24}/);
    expect(world.acme.registered).toEqual([
      expect.objectContaining({
        url: `${world.relay.service.url}/jira/webhooks`,
        events: ['jira:issue_created', 'jira:issue_updated', 'comment_created'],
        jqlFilter: 'project IN ("PROJ")',
      }),
    ]);
    // A state is good once, and only in the browser that holds its cookie.
    expect((await fetch(done.back, { headers: { cookie: done.cookie } })).status).toBe(400);
    expect((await fetch(done.back)).status).toBe(400);
    // Installed again: the app's webhooks there are replaced, never doubled.
    const first = world.acme.registered[0]!.id;
    expect((await install(world, [world.acme])).status).toBe(200);
    expect(world.acme.registered).toHaveLength(1);
    expect(world.acme.registered[0]!.id).not.toBe(first);
  });

  it('refuses a site that is not allowed: nothing kept, no webhook there, its events ignored', async () => {
    world = await startWorld();
    const refused = await install(world, [world.globex]);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('JIRA_ALLOWED_SITES');
    expect(installations(world.relay.databasePath)).toEqual([]);
    expect(world.globex.registered).toEqual([]);
    // Its webhook, were it sent, is answered and forgotten.
    const issue = world.globex.model.addIssue('PROJ');
    const [sent] = await Promise.all([
      world.globex.webhooks.send(
        world.globex.webhooks.labelAdded(issue, PEOPLE.alice, 'agent'),
        {},
        `${world.relay.service.url}/jira/webhooks`,
      ),
    ]);
    expect(await sent!.json()).toMatchObject({ result: 'ignored', reason: 'unknown_site' });
    expect(world.emulator.runs.count()).toBe(0);
    // One consent that reaches both: only the allowed site is kept.
    const both = await install(world, [world.acme, world.globex]);
    expect(both.status).toBe(200);
    expect(both.text).toContain('installed on acme.atlassian.net.');
    const sites = installations(world.relay.databasePath).filter((r) => r.enterprise_id === '');
    expect(sites.map((r) => r.team_id)).toEqual(['acme.atlassian.net']);
    expect(world.acme.registered).toHaveLength(1);
    expect(world.globex.registered).toEqual([]);
  });

  it('an install whose grant lacks a scope Jira needs is refused, saying so, and keeps nothing', async () => {
    world = await startWorld();
    world.atlassian.consent.withhold = ['manage:jira-webhook'];
    const refused = await install(world, [world.acme]);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('check its scopes');
    expect(installations(world.relay.databasePath)).toEqual([]);
  });

  it('a label starts a run answered through the gateway; an expired token is refreshed once', async () => {
    world = await startWorld();
    expect((await install(world, [world.acme])).status).toBe(200);
    const { acme, atlassian } = world;
    const issue = acme.model.addIssue('PROJ', { summary: 'Fix the login page' });
    const [sent] = await acme.deliver(acme.webhooks.labelAdded(issue, PEOPLE.alice, 'agent'));
    expect(await sent!.json()).toMatchObject({ result: 'accepted' });
    const outcome = await waitForComment(acme, issue.key, /Run succeeded/);
    // Links name the site people open, never the gateway.
    expect(JSON.stringify(outcome.body)).toContain('https://acme.atlassian.net/browse/PROJ-1');
    expect(JSON.stringify(outcome.body)).not.toContain('/ex/jira/');
    const paths = atlassian.requests.map((r) => r.path);
    expect(
      paths.some((p) => p.startsWith(`/ex/jira/${acme.cloudId}/rest/api/3/issue/PROJ-1`)),
    ).toBe(true);
    expect(atlassian.tokenRequests.map((t) => t.grant_type)).toEqual(['authorization_code']);

    // An hour later the access token is refused: refreshed once, and the work goes on.
    atlassian.advance(3601_000);
    const next = acme.model.addIssue('PROJ', { summary: 'Tidy the README' });
    await acme.deliver(acme.webhooks.labelAdded(next, PEOPLE.bob, 'agent'));
    await waitForComment(acme, next.key, /Run succeeded/);
    expect(atlassian.tokenRequests.map((t) => t.grant_type)).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    expect(world.emulator.runs.count()).toBe(2);
    expect(world.logs.text()).not.toMatch(/access-[0-9a-f]{24}|refresh-[0-9a-f]{24}/);
  });

  it('the installing account is the relay there: assigned an issue, or mentioned, it runs', async () => {
    world = await startWorld();
    expect((await install(world, [world.acme])).status).toBe(200);
    const { acme } = world;
    const issue = acme.model.addIssue('PROJ', { summary: 'Tidy the README' });
    await acme.deliver(acme.webhooks.assigned(issue, PEOPLE.alice, RELAY_ACCOUNT_ID));
    await waitForComment(acme, issue.key, /Run succeeded/);
    const [own] = await acme.deliver(
      acme.webhooks.commentCreated(issue, RELAY_ACCOUNT_ID, '@agent-relay talk to myself'),
    );
    expect(await own!.json()).toMatchObject({ result: 'ignored', reason: 'self' });
    await acme.deliver(
      acme.webhooks.commentCreated(issue, PEOPLE.bob, '@agent-relay also fix the typos'),
    );
    await waitForComment(acme, issue.key, /Follow-up sent to/);
    expect(world.emulator.runs.count()).toBe(1);
    expect(world.emulator.followups[0]!.message).toContain('also fix the typos');
  });

  it('a webhook without the app’s JWT, or signed with another secret, changes nothing', async () => {
    world = await startWorld();
    expect((await install(world, [world.acme])).status).toBe(200);
    const { acme } = world;
    const issue = acme.model.addIssue('PROJ');
    const body = acme.webhooks.labelAdded(issue, PEOPLE.alice, 'agent');
    const [forged] = await acme.deliver(body, { secret: 'another-secret-of-16-chars-or-more' });
    expect(forged!.status).toBe(401);
    const [unsigned] = await acme.deliver(body, { unsigned: true });
    expect(unsigned!.status).toBe(401);
    // An admin webhook's HMAC does not stand in for the app's JWT.
    const hmac = await fetch(`${world.relay.service.url}/jira/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-atlassian-webhook-identifier': 'hmac-1',
        'x-hub-signature': 'sha256=' + '0'.repeat(64),
      },
      body: JSON.stringify(body),
    });
    expect(hmac.status).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
    expect(world.emulator.runs.count()).toBe(0);
    expect(acme.model.relayComments(issue.key)).toEqual([]);
  });
});

describe("a service account's scoped API token, one site through the gateway", () => {
  it('calls the site through /ex/jira/{cloudId} with basic auth; links name the site', async () => {
    world = await startWorld((atlassian, acme) => {
      atlassian.serviceAccount(acme.cloudId, FAKE_JIRA_EMAIL, FAKE_JIRA_TOKEN);
      return {
        JIRA_BASE_URL: acme.url,
        JIRA_CLOUD_ID: acme.cloudId,
        JIRA_API_URL: atlassian.url,
        JIRA_EMAIL: FAKE_JIRA_EMAIL,
        JIRA_API_TOKEN: FAKE_JIRA_TOKEN,
        JIRA_WEBHOOK_SECRET: FAKE_JIRA_WEBHOOK_SECRET,
        JIRA_ALLOWED_PROJECTS: 'PROJ',
      };
    });
    const { acme, atlassian } = world;
    // An admin webhook, signed with its secret.
    const admin = createJiraWebhooks(acme.model, {
      url: acme.url,
      secret: FAKE_JIRA_WEBHOOK_SECRET,
    });
    const issue = acme.model.addIssue('PROJ', { summary: 'Fix the login page' });
    const sent = await admin.send(
      admin.labelAdded(issue, PEOPLE.alice, 'agent'),
      {},
      `${world.relay.service.url}/jira/webhooks`,
    );
    expect(await sent.json()).toMatchObject({ result: 'accepted' });
    const outcome = await waitForComment(acme, issue.key, /Run succeeded/);
    expect(JSON.stringify(outcome.body)).toContain('https://acme.atlassian.net/browse/PROJ-1');
    const paths = atlassian.requests.map((r) => r.path);
    expect(paths.slice(0, 2)).toEqual([
      `/ex/jira/${acme.cloudId}/rest/api/2/serverInfo`,
      `/ex/jira/${acme.cloudId}/rest/api/3/myself`,
    ]);
    expect(paths.every((p) => p.startsWith(`/ex/jira/${acme.cloudId}/`))).toBe(true);
  });
});
