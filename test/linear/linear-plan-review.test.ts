/**
 * Plan first on Linear (the running relay, the fake Linear GraphQL API, the emulator playing
 * plan mode): with `config mode=plan` for the team, a delegated issue's run shows its plan as
 * an elicitation; a reply asks for changes and brings the revised plan; someone who may not
 * approve is refused; `approve` carries the plan out, and the session ends with the outcome.
 */
import { describe, expect, it } from 'vitest';
import { startLinearWorld } from '../helpers/linear.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startLinearWorld);

describe('Linear: plan first', () => {
  it('plan -> shown -> a reply asks for changes -> revised plan -> approve -> implementation -> outcome', async () => {
    const world = await startWorld();
    const { linear, emulator } = world;
    // Ada administers the workspace: the team's runs plan first.
    const set = await world.configureTeam('mode=plan');
    expect(set.content.body).toContain('mode');

    const { session } = await linear.openSession({ title: 'Fix the flaky login test' });
    const plan = await world.waitForActivity(
      session.id,
      (a) =>
        a.content.type === 'elicitation' &&
        (a.content.body ?? '').includes('The plan is ready for review'),
    );
    expect(plan.content.body).toContain('1. Find where the behaviour lives');
    expect(plan.content.body).toContain('`approve`');
    const run = emulator.runs.all().find((r) => r.prompt.includes('Fix the flaky login test'))!;
    expect(run.state).toBe('BLOCKED');

    // Someone who neither asked nor administers the workspace may not approve.
    await linear.prompt(session.id, 'approve', { user: { id: 'user-bob' } });
    await world.waitForActivity(session.id, (a) =>
      (a.content.body ?? '').includes('Only the person who started this run'),
    );
    expect(emulator.followups).toHaveLength(0);

    // A reply is a request for changes: a revised plan, never the plan carried out.
    await linear.prompt(session.id, 'Keep the old login endpoint working');
    await world.waitForActivity(
      session.id,
      (a) =>
        a.content.type === 'elicitation' &&
        (a.content.body ?? '').includes('The revised plan is ready for review'),
    );
    expect(emulator.followups[0]).toMatchObject({ mode: 'plan' });

    await linear.prompt(session.id, 'approve');
    await world.waitForActivity(
      session.id,
      (a) => a.content.type === 'response' && (a.content.body ?? '').startsWith('Done'),
    );
    expect(emulator.followups[1]?.mode).toBe('normal');
    expect(emulator.runs.get(run.run_id)?.state).toBe('SUCCEEDED');
  });
});
