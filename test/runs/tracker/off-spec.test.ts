/**
 * One run in the team that is off the published description (a null where a string belongs)
 * must not stall tracking: the other runs' changes still reach their threads, cycle after
 * cycle, while the odd run stays listed in the same window.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startClockedEnv, type ClockedEnv } from './harness.js';

let env: ClockedEnv;
beforeEach(async () => {
  env = await startClockedEnv();
});
afterEach(() => env.close());

describe('batch tracker and an off-spec run', () => {
  it('keeps every other run moving while one listed item does not parse', async () => {
    const ours = env.emulator.seedRuns(2, { state: 'INPROGRESS', manual: true });
    await env.track(ours);
    // Someone else's run in the same team, updated in the same window, with a null title.
    const [foreign] = env.emulator.seedRuns(1, { state: 'INPROGRESS', manual: true });
    env.emulator.faults.offSpec(foreign!, { title: null, prompt: null });
    const tr = env.tracker();
    await tr.runCycle();

    env.clock.advance(2_000);
    env.emulator.setState(foreign!, 'CLAIMED');
    env.emulator.setState(ours[0]!, 'BLOCKED');
    const first = await tr.runCycle();
    expect(first).toMatchObject({ changed: 1 });
    expect(await env.queued(ours[0]!, 'status')).toBe(1);

    env.clock.advance(2_000);
    env.emulator.setState(foreign!, 'INPROGRESS');
    env.emulator.setState(ours[1]!, 'SUCCEEDED');
    const second = await tr.runCycle();
    expect(second).toMatchObject({ changed: 1 });
    expect(await env.store.runs.get(ours[1]!)).toMatchObject({ state: 'SUCCEEDED' });
    expect(await env.store.runs.get(ours[0]!)).toMatchObject({ state: 'BLOCKED' });
  });
});
