/**
 * Any number of workspaces: each installs the app through OAuth (the real InstallProvider
 * against the fake Slack), its tokens are kept sealed in the database, and every Web API call
 * for a workspace carries that workspace's token. Two teams never see each other's threads,
 * runs or settings; an uninstall forgets the workspace; an Enterprise Grid org-wide install
 * serves the organisation's workspaces.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventCallback } from '../../helpers/slack.js';
import { waitUntil } from '../../helpers/wait-until.js';
import type { Workspaces } from './workspace-harness.js';
import {
  WORKSPACE_ONE as ONE,
  WORKSPACE_ORG as ORG,
  fakeWorkspace,
  mention,
  workspacesPerTest,
} from './workspace-harness.js';

const TWO = fakeWorkspace('TTWO00002', 'Two', 'two', 'TWO02');

const startWorkspaces = workspacesPerTest();
let w: Workspaces | undefined;

function tokensUsedIn(ws: Workspaces, channel: string): string[] {
  return [
    ...new Set(
      ws.api.calls.filter((c) => c.params.channel === channel).map((c) => c.token ?? 'none'),
    ),
  ];
}

/** The run's status message (the one with a header) the bot posted in a channel. */
function statusIn(ws: Workspaces, channel: string) {
  return ws.api.messages.find(
    (m) =>
      m.channel === channel &&
      m.bot_id !== undefined &&
      JSON.stringify(m.blocks ?? []).includes('"header"'),
  );
}

describe('OAuth install', () => {
  it('installs a workspace: the state cookie is checked, the code traded, the token sealed at rest', async () => {
    w = await startWorkspaces([ONE, TWO]);
    const page = await fetch(`${w.service.url}/slack/install`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('https://slack.test/oauth/v2/authorize?');
    expect(html).toContain('client_id=1111111111.2222222222');
    expect(decodeURIComponent(html)).toContain('scope=app_mentions:read,assistant:write');
    expect(page.headers.get('set-cookie')).toMatch(/^slack-app-oauth-state=/);

    const done = await w.install('code-one');
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('agent-relay is installed in One');
    const exchange = w.api.okCallsTo('oauth.v2.access');
    expect(exchange).toHaveLength(1);
    expect(exchange[0]?.params.code).toBe('code-one');

    const row = await w.service.store.installations.get({
      platform: 'slack',
      enterpriseId: '',
      teamId: 'TONE00001',
    });
    expect(row?.sealed).toMatch(/^v1\./);
    expect(row?.sealed).not.toContain('xoxb-');
    expect(row?.installedBy).toBe('UINSTALL1');
    await w.service.stop();
    for (const file of [w.dbPath, `${w.dbPath}-wal`].filter(existsSync))
      expect(readFileSync(file).includes('xoxb-one-dummy')).toBe(false);
  });

  // With token rotation on, Slack's access tokens expire after 12 hours and come with a refresh
  // token (https://docs.slack.dev/authentication/using-token-rotation); the fake issues them so.
  it('refuses an install whose app has token rotation on, says why, and stores nothing', async () => {
    w = await startWorkspaces([{ ...ONE, rotating: true }, TWO]);
    const refused = await w.install('code-one');
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain('token rotation turned on');
    expect(text).toContain('Nothing was installed');
    expect(w.api.okCallsTo('oauth.v2.access')).toHaveLength(1);
    // The token it was issued went back to Slack: nothing of the refused install works.
    expect(w.api.okCallsTo('auth.revoke').map((c) => c.token)).toEqual([ONE.token]);
    expect(
      await w.service.store.installations.get({
        platform: 'slack',
        enterpriseId: '',
        teamId: 'TONE00001',
      }),
    ).toBeUndefined();
    // A workspace without rotation installs as before.
    expect((await w.install('code-two')).status).toBe(200);
  });

  it("refuses a redirect whose state is not this browser's, and stores nothing", async () => {
    w = await startWorkspaces([ONE]);
    await fetch(`${w.service.url}/slack/install`);
    const forged = await fetch(`${w.service.url}/slack/oauth_redirect?code=code-one&state=forged`, {
      headers: { cookie: 'slack-app-oauth-state=another' },
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('Install failed');
    expect(w.api.callsTo('oauth.v2.access')).toHaveLength(0);
    expect(await w.service.store.installations.count('slack')).toBe(0);
  });
});

describe('two workspaces', () => {
  it('each team is answered with its own token; threads, runs and settings never cross', async () => {
    w = await startWorkspaces([ONE, TWO], { SLACK_ADMIN_USERS: 'UALICE01' });
    expect((await w.install('code-one')).status).toBe(200);
    expect((await w.install('code-two')).status).toBe(200);

    expect(
      (
        await w.post(
          mention(ONE, 'CONE00001', 'model=gpt-5-4-high fix the first thing', '1700000001.000100'),
        )
      ).status,
    ).toBe(200);
    expect(
      (await w.post(mention(TWO, 'CTWO00002', 'fix the second thing', '1700000001.000100'))).status,
    ).toBe(200);
    expect(
      (await w.post(mention(ONE, 'CONE00001', 'config env=env-data', '1700000002.000100'))).status,
    ).toBe(200);

    const api = w.api;
    await waitUntil(() => statusIn(w!, 'CONE00001') && statusIn(w!, 'CTWO00002'), {
      timeoutMs: 10_000,
    });
    await waitUntil(
      async () => (await w!.service.store.settings.list('slack:TONE00001:CONE00001')).length === 1,
    );

    expect(tokensUsedIn(w, 'CONE00001')).toEqual(['xoxb-one-dummy']);
    expect(tokensUsedIn(w, 'CTWO00002')).toEqual(['xoxb-two-dummy']);
    expect(statusIn(w, 'CONE00001')?.bot_id).toBe('BBOTONE01');
    expect(statusIn(w, 'CTWO00002')?.bot_id).toBe('BBOTTWO02');

    const store = w.service.store;
    const one = await store.runs.listRecent('slack:TONE00001:', 10);
    const two = await store.runs.listRecent('slack:TTWO00002:', 10);
    expect(one.map((r) => r.threadKey)).toEqual(['slack:TONE00001:CONE00001:1700000001.000100']);
    expect(two.map((r) => r.threadKey)).toEqual(['slack:TTWO00002:CTWO00002:1700000001.000100']);
    expect(one[0]?.applied).toContainEqual({
      key: 'model',
      value: 'GPT-5.4 (gpt-5-4-high)',
      source: 'inline',
    });
    expect(two[0]?.applied.find((a) => a.key === 'model')?.value).toBeUndefined();
    expect(await store.settings.list('slack:TTWO00002:CTWO00002')).toEqual([]);
    expect(api.calls.every((c) => c.error !== 'invalid_auth' && c.error !== 'not_authed')).toBe(
      true,
    );
  });

  it('the same channel and user ids in two workspaces still keep their settings and personal defaults apart', async () => {
    w = await startWorkspaces([ONE, TWO], { SLACK_ADMIN_USERS: 'UALICE01' });
    await w.install('code-one');
    await w.install('code-two');
    const store = w.service.store;
    // Channel defaults and Alice's own defaults, set in workspace One only.
    await w.post(mention(ONE, 'CSAME0001', 'config model=gemini-3-pro', '1700000010.000100'));
    await waitUntil(
      async () => (await store.settings.list('slack:TONE00001:CSAME0001')).length === 1,
    );
    await store.settings.set('slack-user:TONE00001:UALICE01', 'env', 'env-web-app', 'UALICE01', 1);

    await w.post(mention(ONE, 'CSAME0001', 'first in one', '1700000011.000100'));
    await w.post(mention(TWO, 'CSAME0001', 'first in two', '1700000011.000100'));
    const runOf = async (team: string) =>
      (await store.runs.listRecent(`slack:${team}:CSAME0001:`, 5))[0];
    const one = await waitUntil(() => runOf('TONE00001'), { timeoutMs: 10_000 });
    const two = await waitUntil(() => runOf('TTWO00002'), { timeoutMs: 10_000 });
    expect(one.threadKey).toBe('slack:TONE00001:CSAME0001:1700000011.000100');
    expect(two.threadKey).toBe('slack:TTWO00002:CSAME0001:1700000011.000100');
    expect(one.applied).toEqual(
      expect.arrayContaining([
        { key: 'model', value: 'Gemini 3 Pro (gemini-3-pro)', source: 'default' },
        { key: 'env', value: 'Web App (env-web-app)', source: 'personal' },
      ]),
    );
    expect(two.applied.filter((a) => a.source !== 'service')).toEqual([]);
    // Each workspace's status message in "the same" channel went out with its own token.
    const tokens = () =>
      new Set(
        w!.api
          .okCallsTo('chat.postMessage')
          .filter((c) => c.params.channel === 'CSAME0001')
          .map((c) => c.token),
      );
    await waitUntil(() => tokens().size === 2, { timeoutMs: 10_000 });
    expect(tokens()).toEqual(new Set([ONE.token, TWO.token]));
  });

  it('an uninstalled workspace is forgotten: its events are no longer taken, the other goes on', async () => {
    w = await startWorkspaces([ONE, TWO]);
    await w.install('code-one');
    await w.install('code-two');
    const uninstalled = eventCallback(
      { type: 'app_uninstalled', event_ts: '1700000003.000100' },
      { teamId: TWO.team_id, botUserId: TWO.bot_user_id },
    );
    w.api.revoke(TWO.token);
    expect((await w.post(uninstalled)).status).toBe(200);
    const store = w.service.store;
    expect(
      await store.installations.get({ platform: 'slack', enterpriseId: '', teamId: 'TTWO00002' }),
    ).toBeUndefined();

    await w.post(mention(TWO, 'CTWO00002', 'anyone there?', '1700000004.000100'));
    await w.post(mention(ONE, 'CONE00001', 'still here', '1700000004.000100'));
    await waitUntil(() => statusIn(w!, 'CONE00001'), { timeoutMs: 10_000 });
    expect(await store.runs.listRecent('slack:TTWO00002:', 10)).toEqual([]);
    expect(w.api.calls.filter((c) => c.token === TWO.token && c.method !== 'auth.test')).toEqual(
      [],
    );
  });

  it('a revoked bot token forgets the workspace too; a revoked user token does not', async () => {
    w = await startWorkspaces([ONE]);
    await w.install('code-one');
    const key = { platform: 'slack' as const, enterpriseId: '', teamId: 'TONE00001' };
    const revoked = (tokens: Record<string, string[]>) =>
      eventCallback(
        { type: 'tokens_revoked', tokens, event_ts: '1700000005.000100' },
        { teamId: ONE.team_id },
      );
    await w.post(revoked({ oauth: ['UALICE01'] }));
    expect(await w.service.store.installations.get(key)).toBeDefined();
    await w.post(revoked({ bot: [ONE.bot_user_id] }));
    expect(await w.service.store.installations.get(key)).toBeUndefined();
  });
});

describe('the configured bot token beside installations', () => {
  it('still serves its own workspace, and no other that never installed the app', async () => {
    w = await startWorkspaces([ONE], {}, { botToken: 'xoxb-single-dummy' });
    await w.install('code-one');
    const own = { ...ONE, team_id: 'T0000001', bot_user_id: 'UBOT0001' };
    const stranger = { ...ONE, team_id: 'TSTRANGER', bot_user_id: 'UBOT0001' };
    await w.post(mention(stranger, 'CSTRANGE1', 'let me in', '1700000020.000100'));
    await w.post(mention(own, 'COWN00001', 'the old way', '1700000020.000100'));
    await w.post(mention(ONE, 'CONE00001', 'the new way', '1700000020.000100'));
    await waitUntil(() => statusIn(w!, 'COWN00001') && statusIn(w!, 'CONE00001'), {
      timeoutMs: 10_000,
    });
    expect(tokensUsedIn(w, 'COWN00001')).toEqual(['xoxb-single-dummy']);
    expect(tokensUsedIn(w, 'CONE00001')).toEqual([ONE.token]);
    expect(tokensUsedIn(w, 'CSTRANGE1')).toEqual([]);
    expect(await w.service.store.runs.listRecent('slack:TSTRANGER:', 5)).toEqual([]);
  });
});

describe('Enterprise Grid', () => {
  it("an org-wide install serves the organisation's workspaces with the organisation's token", async () => {
    w = await startWorkspaces([ORG, ONE]);
    const done = await w.install('code-org');
    expect(await done.text()).toContain('installed in your organisation');
    const store = w.service.store;
    expect(
      await store.installations.get({ platform: 'slack', enterpriseId: 'EORG00001', teamId: '' }),
    ).toBeDefined();

    await w.post(mention(ORG, 'CORG00001', 'tidy the org docs', '1700000006.000100'));
    await waitUntil(() => statusIn(w!, 'CORG00001'), { timeoutMs: 10_000 });
    expect(tokensUsedIn(w, 'CORG00001')).toEqual(['xoxb-org-dummy']);
    expect(await store.installations.enterpriseOf('slack', 'TORGWS001')).toBe('EORG00001');
    const runs = await store.runs.listRecent('slack:TORGWS001:', 10);
    expect(runs).toHaveLength(1);
  });
});
