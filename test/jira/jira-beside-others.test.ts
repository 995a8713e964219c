/**
 * Jira on beside Slack and GitHub: the runs route each access question to the thread's own
 * platform, so Jira's project permissions never stand in for Slack's admins (a Slack person
 * who is no admin still cannot change a channel's defaults) nor for GitHub's repository check.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FAKE_JIRA_EMAIL,
  FAKE_JIRA_TOKEN,
  FAKE_JIRA_WEBHOOK_SECRET,
  startFakeJira,
  type FakeJira,
} from '../../src/fakes/jira-rest-api.js';
import { relayPerTest } from '../helpers/relay.js';
import { slashCommandBody } from '../helpers/slack.js';
import { waitUntil } from '../helpers/wait-until.js';

const start = relayPerTest();
let jira: FakeJira;
beforeEach(async () => {
  jira = await startFakeJira();
});
afterEach(async () => {
  await jira.close();
});

describe('Jira beside Slack', () => {
  it("a Slack person who is no admin cannot change a channel's defaults; an admin can", async () => {
    const r = await start({
      env: {
        SLACK_ADMIN_USERS: 'UALICE01',
        JIRA_BASE_URL: jira.url,
        JIRA_EMAIL: FAKE_JIRA_EMAIL,
        JIRA_API_TOKEN: FAKE_JIRA_TOKEN,
        JIRA_WEBHOOK_SECRET: FAKE_JIRA_WEBHOOK_SECRET,
        JIRA_ALLOWED_PROJECTS: 'PROJ',
      },
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
    expect(jira.requests.map((q) => q.path)).toEqual(['/rest/api/3/myself']);
  });
});
