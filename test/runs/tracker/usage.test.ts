/** The tracker keeps the latest usage the service reported for each run, in both modes. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TrackerMode } from '../../../src/runs/tracker/tracker.js';
import { startClockedEnv, type ClockedEnv } from './harness.js';

let env: ClockedEnv;
beforeEach(async () => {
  env = await startClockedEnv();
});
afterEach(() => env.close());

describe.each<TrackerMode>(['batch', 'per-run'])('tracker (%s): usage', (mode) => {
  it('records nothing before the service reports usage, then its latest figures', async () => {
    const [id] = env.emulator.seedRuns(1, { state: 'CLAIMED', manual: true });
    await env.track([id!]);
    const tr = env.tracker({ mode });
    env.clock.advance(2_000);
    await tr.runCycle();
    const before = await env.store.runs.get(id!);
    expect(before?.costUsd).toBeUndefined();
    expect(before?.tokens).toBeUndefined();

    env.emulator.setState(id!, 'INPROGRESS');
    env.clock.advance(2_000);
    await tr.runCycle();
    expect(await env.store.runs.get(id!)).toMatchObject({ costUsd: 0.08, tokens: 12_000 });

    env.emulator.setState(id!, 'SUCCEEDED');
    env.clock.advance(2_000);
    await tr.runCycle();
    expect(await env.store.runs.get(id!)).toMatchObject({ costUsd: 1.24, tokens: 312_000 });
  });
});
