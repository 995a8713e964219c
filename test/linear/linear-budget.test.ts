/**
 * A budget for a Linear team, end to end against the fake Linear API and the emulator: set
 * with `config budget=` in one of the team's agent sessions, it refuses a new run in the
 * team's next session, in words that name a team and say how it is raised there.
 */
import { describe, expect, it } from 'vitest';
import { startLinearWorld } from '../helpers/linear.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startLinearWorld);

describe('Linear: a budget per team', () => {
  it('is set in a session, and a new run in the team is refused in its words', async () => {
    const world = await startWorld();
    const { linear } = world;
    const session = await world.answeredSession('First issue');
    expect(world.emulator.runs.count()).toBe(1);

    const answer = await world.answerTo(session.id, 'config budget=0');
    expect(answer.content.body).toContain('`budget` = `0`');

    const next = await linear.openSession({ title: 'Second issue' });
    const refused = await world.waitForActivity(next.session.id, (a) =>
      (a.content.body ?? '').includes('budget'),
    );
    expect(world.emulator.runs.count()).toBe(1);
    const body = refused.content.body ?? '';
    expect(body).toContain('This team has spent');
    expect(body).not.toContain('channel');
    expect(body).toContain("It is raised from any of the team's agent sessions:");
    expect(body).toContain('```\nconfig budget=<US dollars>\n```');
    expect(body).not.toContain('/agent');
  }, 30_000);

  it("is changed only by an admin of the Linear workspace; anyone may read the team's defaults", async () => {
    const world = await startWorld();
    const { linear } = world;
    const session = await world.answeredSession('An issue');

    // Bob is a member, not an admin: his change is refused and nothing is set. Linear is asked
    // who he is only after the webhook was answered: nothing delays the acknowledgement.
    const before = linear.activitiesOf(session.id).length;
    await linear.prompt(session.id, 'config budget=0', { user: { id: 'user-bob', name: 'Bob' } });
    const acknowledged = performance.now();
    const refused = await world.waitForActivity(
      session.id,
      (a) => linear.activitiesOf(session.id).indexOf(a) >= before,
    );
    expect(refused.content.body).toContain('Only an admin of this Linear workspace');
    const asked = linear.requests.find(
      (r) => r.operation === 'UserAdmin' && r.variables.id === 'user-bob',
    );
    expect(asked?.at).toBeGreaterThanOrEqual(acknowledged);

    // He may still read the defaults: none are set.
    const shown = await world.answerTo(session.id, 'config', {
      user: { id: 'user-bob', name: 'Bob' },
    });
    expect(shown.content.body).not.toContain('budget');

    // A new run in the team still starts: the refused budget was never set.
    await world.answeredSession('Another issue');
    expect(world.emulator.runs.count()).toBe(2);
  }, 30_000);

  it('`config user=` names no one here: refused, and the team budget is not touched', async () => {
    const world = await startWorld();
    const session = await world.answeredSession('An issue');
    // Ada is an admin: she means Bob's budget, which Linear does not have.
    const answer = await world.answerTo(session.id, 'config user=@bob budget=0', {}, () => true);
    expect(answer.content.body).toContain('People have no budgets of their own here');
    await world.answeredSession('Second issue');
    expect(world.emulator.runs.count()).toBe(2);
  }, 30_000);
});
