/**
 * Who may use the relay on a Jira issue, asked of Jira (the fake site's project permissions)
 * after the webhook was answered: a person without Add Comments is refused once, politely, and
 * nothing reaches the service; only a project admin changes the project's defaults.
 */
import { describe, expect, it } from 'vitest';
import { PEOPLE } from '../../src/fakes/jira-rest-api.js';
import { commentText, startJiraWorld } from '../helpers/jira.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startJiraWorld);

const quiet = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('who may act on a Jira issue', () => {
  it('refuses a person without the project’s comment permission once, and starts nothing', async () => {
    const world = await startWorld();
    const { jira } = world;
    const issue = jira.model.addIssue('PROJ');
    const asked = await world.comment(issue, PEOPLE.mallory, '@agent-relay delete everything');
    expect(asked.answer).toMatchObject({ result: 'accepted' });
    const refusal = await world.waitForComment(issue.key, (t) => /Thanks for the request/.test(t));
    expect(commentText(refusal)).toMatch(/browse this Jira project and comment on its issues/);
    await world.send(jira.webhooks.labelAdded(issue, PEOPLE.mallory, 'agent'));
    await world.comment(issue, PEOPLE.mallory, '@agent-relay again');
    await quiet(500);
    expect(jira.model.relayComments(issue.key)).toHaveLength(1);
    expect(world.emulator.runs.count()).toBe(0);
    const asks = jira.requests.filter((r) => r.path === '/rest/api/3/user/permission/search');
    expect(asks[0]!.query.get('permissions')).toBe('BROWSE_PROJECTS,ADD_COMMENTS');
    expect(asks[0]!.query.get('projectKey')).toBe('PROJ');
  });

  it('lets only a project admin change the defaults; anyone allowed may show them', async () => {
    const world = await startWorld();
    const { jira } = world;
    const issue = jira.model.addIssue('PROJ');
    await world.comment(issue, PEOPLE.bob, '@agent-relay config mode=plan');
    await world.waitForComment(issue.key, (t) => /Only an admin of this project/.test(t));
    await world.comment(issue, PEOPLE.alice, '@agent-relay config mode=plan');
    await world.waitForComment(issue.key, (t) => /mode = plan ✏️/.test(t));
    await world.comment(issue, PEOPLE.bob, '@agent-relay config');
    await world.waitForComment(
      issue.key,
      (t) => /Defaults for jira:127\.0\.0\.1:PROJ/.test(t) && !/✏️/.test(t),
    );
  });
});

describe("a Jira project's budget", () => {
  it('a project admin sets it; a new run over it is refused in the project’s words', async () => {
    const world = await startWorld();
    const { jira } = world;
    const issue = jira.model.addIssue('PROJ');
    await world.comment(issue, PEOPLE.alice, '@agent-relay config budget=1');
    await world.waitForComment(issue.key, (t) => /budget = 1 ✏️/.test(t));
    await world.comment(issue, PEOPLE.bob, '@agent-relay fix it');
    await world.waitForComment(issue.key, (t) => /Run succeeded/.test(t));
    const next = jira.model.addIssue('PROJ');
    await world.send(jira.webhooks.labelAdded(next, PEOPLE.bob, 'agent'));
    const refused = await world.waitForComment(next.key, (t) => /budget/.test(t));
    expect(commentText(refused)).toMatch(/This project has spent/);
    expect(commentText(refused)).toMatch(/An admin of the Jira project can raise it/);
    expect(world.emulator.runs.count()).toBe(1);
    // `list` in any issue of the project shows the project's runs, not another's.
    await world.comment(next, PEOPLE.bob, '@agent-relay list');
    const list = await world.waitForComment(next.key, (t) => /Recent runs in this project/.test(t));
    expect(commentText(list)).toMatch(/Succeeded · fix it/);
  });
});
