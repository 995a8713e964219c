/**
 * Plan first on Jira, by typed replies (Jira has no buttons the relay can post): the plan in a
 * comment that mentions the requester, `changes <text>` for a revised plan, `approve` to carry
 * it out; someone else's `approve` is refused and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { PEOPLE } from '../../src/fakes/jira-rest-api.js';
import { commentText, startJiraWorld } from '../helpers/jira.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startJiraWorld);

describe('Jira: plan first', () => {
  it('plan -> shown -> changes -> revised plan -> approve -> implementation -> outcome', async () => {
    const world = await startWorld();
    const { jira, emulator } = world;
    const issue = jira.model.addIssue('PROJ');
    await world.comment(issue, PEOPLE.alice, '@agent-relay mode=plan tidy the schema');
    const plan = await world.waitForComment(issue.key, (t) =>
      /📋 The plan is ready for review:/.test(t),
    );
    expect(commentText(plan)).toContain('Find where the behaviour lives');
    expect(commentText(plan)).toContain('@agent-relay approve');

    await world.comment(issue, PEOPLE.bob, '@agent-relay approve');
    await world.waitForComment(issue.key, (t) => /Only the person who started this run/.test(t));
    expect(emulator.followups).toHaveLength(0);

    await world.comment(issue, PEOPLE.alice, '@agent-relay changes keep the v1 table');
    await world.waitForComment(issue.key, (t) =>
      /📋 The revised plan is ready for review:/.test(t),
    );
    expect(emulator.followups[0]).toMatchObject({ message: 'keep the v1 table', mode: 'plan' });

    await world.comment(issue, PEOPLE.alice, '@agent-relay approve');
    await world.waitForComment(issue.key, (t) => /Run succeeded/.test(t));
    expect(emulator.followups[1]?.mode).toBe('normal');
    expect(emulator.runs.count()).toBe(1);
  });
});
