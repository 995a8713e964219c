/**
 * People on Jira: the handle JIRA_BOT_HANDLE names is the one every notice tells people to
 * write (not GitHub's), and a person's own budget, set by a project admin who mentions them
 * (`config user=[~accountid:…] budget=…`), is kept by their account id for that project.
 */
import { describe, expect, it } from 'vitest';
import { PEOPLE } from '../../src/fakes/jira-rest-api.js';
import { commentText, startJiraWorld } from '../helpers/jira.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startJiraWorld);

describe('the handle a Jira notice tells people to write', () => {
  it('is JIRA_BOT_HANDLE in the status, the help and the budget notices', async () => {
    const world = await startWorld({ env: { JIRA_BOT_HANDLE: 'robo' } });
    const { jira } = world;
    const issue = jira.model.addIssue('PROJ');
    await world.comment(issue, PEOPLE.bob, '@robo help');
    const help = await world.waitForComment(issue.key, (t) => /How to use/.test(t));
    expect(commentText(help)).toContain('@robo');
    await world.comment(issue, PEOPLE.alice, '@robo config budget=0');
    await world.waitForComment(issue.key, (t) => /budget = 0 ✏️/.test(t));
    await world.comment(issue, PEOPLE.bob, '@robo fix it');
    const refused = await world.waitForComment(issue.key, (t) => /has spent/.test(t));
    expect(commentText(refused)).toContain('@robo config budget=');
    for (const c of jira.model.relayComments(issue.key))
      expect(commentText(c)).not.toContain('@agent-relay');
    expect(world.emulator.runs.count()).toBe(0);
  });
});

describe("a person's own budget on Jira", () => {
  it('a project admin sets it by mention; that person’s runs stop, others’ go on', async () => {
    const world = await startWorld();
    const { jira } = world;
    const issue = jira.model.addIssue('PROJ');
    // A name typed as text is no account id: the admin is told how to name the person.
    await world.comment(issue, PEOPLE.alice, '@agent-relay config user=@bob budget=0');
    await world.waitForComment(issue.key, (t) => /real mention/.test(t));
    // Only a project admin sets someone's budget.
    await world.comment(
      issue,
      PEOPLE.bob,
      `@agent-relay config user=[~accountid:${PEOPLE.alice}] budget=0`,
    );
    await world.waitForComment(issue.key, (t) => /Only an admin of this project/.test(t));
    await world.comment(
      issue,
      PEOPLE.alice,
      `@agent-relay config user=[~accountid:${PEOPLE.bob}] budget=0`,
    );
    await world.waitForComment(issue.key, (t) => /budget = 0 ✏️/.test(t));
    const settings = await world.relay.service.store.settings.list(
      `jira-user:127.0.0.1:PROJ:${PEOPLE.bob}`,
    );
    expect(settings).toEqual([expect.objectContaining({ key: 'budget', value: '0' })]);

    const bobs = jira.model.addIssue('PROJ');
    await world.send(jira.webhooks.labelAdded(bobs, PEOPLE.bob, 'agent'));
    const refused = await world.waitForComment(bobs.key, (t) => /Your runs have spent/.test(t));
    expect(commentText(refused)).toContain('An admin of this project can raise it');
    expect(commentText(refused)).toContain('@agent-relay config user=@<you> budget=');
    const alices = jira.model.addIssue('PROJ');
    await world.send(jira.webhooks.labelAdded(alices, PEOPLE.alice, 'agent'));
    await world.waitForComment(alices.key, (t) => /Run succeeded/.test(t));
    expect(world.emulator.runs.count()).toBe(1);
  });
});
