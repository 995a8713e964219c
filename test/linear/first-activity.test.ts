/**
 * Linear marks an agent unresponsive when its first activity comes more than 10 s after the
 * session opened. The relay's thought is queued when the trigger is picked up, before the
 * service is asked anything, so a slow create does not delay it.
 */
import { describe, expect, it } from 'vitest';
import { startLinearWorld } from '../helpers/linear.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startLinearWorld);

describe('the first activity in a Linear session', () => {
  it('comes within 3 s while the service holds the create for 10 s', async () => {
    const world = await startWorld();
    world.emulator.faults.setLatency(10_000);
    const { session } = await world.linear.openSession({ title: 'Slow service' });
    const first = await world.waitForActivity(session.id, () => true, 5_000);
    expect(first.content).toEqual({ type: 'thought', body: 'Starting a cloud agent run…' });
    expect(first.at - session.createdAt).toBeLessThan(3_000);
    // The run is still created, and its session link set, once the service answers.
    world.emulator.faults.setLatency(0);
    const deadline = Date.now() + 20_000;
    while (world.linear.sessions.get(session.id)!.externalUrls.length === 0) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(world.emulator.runs.count()).toBe(1);
  }, 40_000);
});
