/**
 * Jira on beside Slack and GitHub: the runs route each access question to the thread's own
 * platform, so Jira's project permissions never stand in for Slack's admins (a Slack person
 * who is no admin still cannot change a channel's defaults) nor for GitHub's repository check
 * (a read-only collaborator is still refused).
 */
import { describe, expect, it } from 'vitest';
import {
  FAKE_JIRA_EMAIL,
  FAKE_JIRA_TOKEN,
  FAKE_JIRA_WEBHOOK_SECRET,
} from '../../src/fakes/jira-rest-api.js';
import { fixtureText, type Payload } from '../github/fixtures.js';
import { relayPerTest } from '../helpers/relay.js';
import { slashCommandBody } from '../helpers/slack.js';
import { waitUntil } from '../helpers/wait-until.js';
import { fakeJiraPerTest } from '../helpers/jira.js';

const start = relayPerTest();
const jira = fakeJiraPerTest();

const JIRA_ON = () => ({
  JIRA_BASE_URL: jira.url,
  JIRA_EMAIL: FAKE_JIRA_EMAIL,
  JIRA_API_TOKEN: FAKE_JIRA_TOKEN,
  JIRA_WEBHOOK_SECRET: FAKE_JIRA_WEBHOOK_SECRET,
  JIRA_ALLOWED_PROJECTS: 'PROJ',
});

describe('Jira beside GitHub', () => {
  it('a read-only collaborator is still refused by GitHub’s repository check', async () => {
    const r = await start({ env: JIRA_ON() });
    r.github.setPermission('octo-org', 'widgets', 'rita', 'read');
    const payload = JSON.parse(fixtureText('issue-comment-created')) as Payload;
    payload.comment.body = '@agent-relay delete the tests';
    payload.comment.author_association = 'COLLABORATOR';
    payload.comment.user.login = 'rita';
    const res = await r.postGitHub(JSON.stringify(payload), {
      event: 'issue_comment',
      deliveryId: 'beside-jira-1',
    });
    expect(res.status).toBe(202);
    await waitUntil(
      () => [...r.github.comments.values()].find((c) => c.body.includes('only by people with')),
      { timeoutMs: 5_000 },
    );
    expect(r.github.permissionLookups).toContain('octo-org/widgets:rita');
    expect(r.emulator.runs.all()).toEqual([]);
  });
});

describe('Jira beside Slack', () => {
  it("a Slack person who is no admin cannot change a channel's defaults; an admin can", async () => {
    const r = await start({
      env: { SLACK_ADMIN_USERS: 'UALICE01', ...JIRA_ON() },
    });
    expect(r.config.jira).toBeDefined();
    await r.postSlack(slashCommandBody({ text: 'config env=attacker-env', user: 'UBOB0001' }));
    await waitUntil(
      () => r.slack.calls.some((c) => /Only an admin/.test(JSON.stringify(c.params))),
      { timeoutMs: 5_000 },
    );
    expect(await r.service.store.settings.list('slack:T0000001:CGENERAL1')).toEqual([]);
    await r.postSlack(slashCommandBody({ text: 'config env=web-app', user: 'UALICE01' }));
    await waitUntil(
      async () => (await r.service.store.settings.list('slack:T0000001:CGENERAL1')).length === 1,
      { timeoutMs: 5_000 },
    );
    // Nothing of Slack's was asked of Jira.
    expect(jira.requests.map((q) => q.path)).toEqual([
      '/rest/api/2/serverInfo',
      '/rest/api/3/myself',
    ]);
  });
});
