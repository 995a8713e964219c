/**
 * Plan first on Jira, by typed replies (Jira has no buttons the relay can post): the plan in a
 * comment that mentions the requester, `changes <text>` for a revised plan, `approve` to carry
 * it out; someone else's `approve` is refused and changes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PEOPLE } from '../../src/fakes/jira-rest-api.js';
import { commentText, startJiraWorld, type JiraWorld } from '../helpers/jira.js';

let world: JiraWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('Jira: plan first', () => {
  it('plan -> shown -> changes -> revised plan -> approve -> implementation -> outcome', async () => {
    world = await startJiraWorld();
    const { jira, emulator } = world;
    const issue = jira.model.addIssue('PROJ');
    await world.send(
      jira.webhooks.commentCreated(issue, PEOPLE.alice, '@agent-relay mode=plan tidy the schema'),
    );
    const plan = await world.waitForComment(issue.key, (t) =>
      /📋 The plan is ready for review:/.test(t),
    );
    expect(commentText(plan)).toContain('Find where the behaviour lives');
    expect(commentText(plan)).toContain('@agent-relay approve');

    await world.send(jira.webhooks.commentCreated(issue, PEOPLE.bob, '@agent-relay approve'));
    await world.waitForComment(issue.key, (t) => /Only the person who started this run/.test(t));
    expect(emulator.followups).toHaveLength(0);

    await world.send(
      jira.webhooks.commentCreated(issue, PEOPLE.alice, '@agent-relay changes keep the v1 table'),
    );
    await world.waitForComment(issue.key, (t) =>
      /📋 The revised plan is ready for review:/.test(t),
    );
    expect(emulator.followups[0]).toMatchObject({ message: 'keep the v1 table', mode: 'plan' });

    await world.send(jira.webhooks.commentCreated(issue, PEOPLE.alice, '@agent-relay approve'));
    await world.waitForComment(issue.key, (t) => /Run succeeded/.test(t));
    expect(emulator.followups[1]?.mode).toBe('normal');
    expect(emulator.runs.count()).toBe(1);
  });
});
