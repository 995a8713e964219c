/**
 * Plan first on Teams, by typed replies in the thread (the relay's cards carry only Stop and
 * Cancel): the plan in a reply that mentions the requester, `changes <text>` for a revised
 * plan, `approve` to carry it out; someone else's `approve` is refused and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { GENERAL_CHANNEL, TEAMS_PEOPLE } from '../../src/fakes/teams-connector.js';
import { shownText, startTeamsWorld } from '../helpers/teams.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startTeamsWorld);

describe('Teams: plan first', () => {
  it('plan -> shown -> changes -> revised plan -> approve -> implementation -> outcome', async () => {
    const world = await startWorld();
    const { teams, emulator } = world;
    const mention = teams.build.channelMention(TEAMS_PEOPLE.alice, 'mode=plan tidy the schema');
    await world.send(mention);
    const thread = `${GENERAL_CHANNEL};messageid=${String(mention.id)}`;
    const inThread = (person: typeof TEAMS_PEOPLE.alice, words: string) =>
      world.send(teams.build.channelMention(person, words, { root: String(mention.id) }));

    const plan = await world.waitFor(thread, (t) => /📋 The plan is ready for review:/.test(t));
    expect(shownText(plan)).toMatch(/^<at>Alice Park<\/at> /);
    expect(shownText(plan)).toContain('Find where the behaviour lives');
    expect(shownText(plan)).toContain('@agent-relay approve');

    await inThread(TEAMS_PEOPLE.bob, 'approve');
    await world.waitFor(thread, (t) => /Only the person who started this run/.test(t));
    expect(emulator.followups).toHaveLength(0);

    await inThread(TEAMS_PEOPLE.alice, 'changes keep the v1 table');
    await world.waitFor(thread, (t) => /📋 The revised plan is ready for review:/.test(t));
    expect(emulator.followups[0]).toMatchObject({ message: 'keep the v1 table', mode: 'plan' });

    await inThread(TEAMS_PEOPLE.alice, 'approve');
    await world.waitFor(thread, (t) => /Run succeeded/.test(t));
    expect(emulator.followups[1]?.mode).toBe('normal');
    expect(emulator.runs.count()).toBe(1);
  });
});
