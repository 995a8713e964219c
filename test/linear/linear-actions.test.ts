/**
 * End to end: while a Linear run works, the steps of its conversation (read by the tracker's
 * progress loop, delivered through the outbox with the status) become `action` activities in
 * the session, each step once, before the response.
 */
import { describe, expect, it } from 'vitest';
import { startLinearWorld } from '../helpers/linear.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startLinearWorld);

describe('Linear: the agent’s steps as actions', () => {
  it('each finished step once, with its parameter and result, then the response', async () => {
    const world = await startWorld({
      progressIntervalMs: 100,
      env: { PROGRESS_READS_PER_MINUTE: '600' },
    });
    const { linear } = world;
    const { session } = await linear.openSession({ title: 'Long job [slow]' });
    const done = await world.waitForActivity(session.id, (a) => a.content.type === 'response');
    const all = linear.activitiesOf(session.id);
    const actions = all.filter((a) => a.content.type === 'action');
    // The emulated agent searches, edits, then runs the tests, one step at a time.
    expect(actions.length).toBeGreaterThanOrEqual(2);
    const known = [
      { action: 'Search codebase', parameter: 'where the change belongs', result: 'Done' },
      { action: 'Edit files', parameter: 'src/index.ts', result: 'Done' },
      { action: 'Run command', parameter: 'npm test', result: 'Done' },
    ];
    for (const a of actions) {
      const { type, ...content } = a.content;
      expect(type).toBe('action');
      expect(known).toContainEqual(content);
      expect(a.ephemeral).toBe(false);
    }
    // Never two activities for one step, and in the order the agent worked.
    const names = actions.map((a) => a.content.action as string);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(known.map((k) => k.action).filter((n) => names.includes(n)));
    expect(all.indexOf(actions.at(-1)!)).toBeLessThan(all.indexOf(done));
    // The first activity is still the starting thought.
    expect(all[0]!.content.type).toBe('thought');
  });
});
