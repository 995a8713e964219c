/**
 * Several replicas' trackers on one store: the tracking lease gives the cycle to one of them
 * at a time, so the service sees one tracker's requests however many replicas run; when the
 * holder dies another takes over once the lease runs out, and catches up, telling each change
 * exactly once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Tracker } from '../../../src/runs/tracker/tracker.js';
import { startClockedEnv, type ClockedEnv } from './harness.js';

let env: ClockedEnv;
beforeEach(async () => {
  env = await startClockedEnv();
});
afterEach(() => env.close());

const TTL = 8_000;
const replica = (holder: string): Tracker =>
  env.tracker({}, env.store, { name: 'tracker', holder, ttlMs: TTL });

async function outcomes(runId: string): Promise<string[]> {
  const items = await env.store.outboxQueue.list();
  return items.flatMap((i) =>
    i.payload.runId === runId && i.payload.message?.type === 'run_outcome'
      ? [i.payload.message.run.state.name]
      : [],
  );
}

describe('tracking lease', () => {
  it('three replicas cost what one does: only the holder lists', async () => {
    const ids = env.emulator.seedRuns(20, { state: 'INPROGRESS', manual: true });
    await env.track(ids);
    const replicas = [replica('A'), replica('B'), replica('C')];
    let listRequests = 0;
    let standby = 0;
    for (let cycle = 0; cycle < 10; cycle += 1) {
      env.emulator.setState(ids[cycle]!, cycle % 2 === 0 ? 'SUCCEEDED' : 'BLOCKED');
      for (const r of replicas) {
        const stats = await r.runCycle();
        listRequests += stats.listRequests;
        if (stats.standby) standby += 1;
      }
      env.clock.advance(2_000);
    }
    expect(listRequests).toBe(10);
    expect(standby).toBe(20);
    for (const [i, id] of ids.slice(0, 10).entries()) {
      expect(await outcomes(id)).toEqual([i % 2 === 0 ? 'SUCCEEDED' : 'BLOCKED']);
    }
  });

  it('the holder dies: another replica takes over once the lease runs out and tells each change once', async () => {
    const [early, late, quiet] = env.emulator.seedRuns(3, { state: 'INPROGRESS', manual: true });
    await env.track([early!, late!, quiet!]);
    const a = replica('A');
    const b = replica('B');
    expect(await a.runCycle()).toMatchObject({ standby: false, listRequests: 1 });
    env.emulator.setState(early!, 'SUCCEEDED');
    env.clock.advance(2_000);
    expect(await a.runCycle()).toMatchObject({ changed: 1 });
    // A is killed (no stop, no release). B waits out the lease, then takes over.
    env.emulator.setState(late!, 'FAILED');
    env.clock.advance(TTL - 1);
    expect(await b.runCycle()).toMatchObject({ standby: true, listRequests: 0 });
    env.clock.advance(1);
    expect(await b.runCycle()).toMatchObject({ standby: false, changed: 1 });
    env.clock.advance(2_000);
    await b.runCycle();

    expect(await outcomes(early!)).toEqual(['SUCCEEDED']);
    expect(await outcomes(late!)).toEqual(['FAILED']);
    expect(await outcomes(quiet!)).toEqual([]);
  });

  it('a replica that lost the lease and gets it back tells only what is new', async () => {
    const [one, two] = env.emulator.seedRuns(2, { state: 'INPROGRESS', manual: true });
    await env.track([one!, two!]);
    const a = replica('A');
    const b = replica('B');
    await a.runCycle();
    // A stalls past its lease; B holds it for a while, sees a change, then stops cleanly.
    env.clock.advance(TTL);
    expect(await b.runCycle()).toMatchObject({ standby: false });
    expect(await a.runCycle()).toMatchObject({ standby: true });
    env.emulator.setState(one!, 'BLOCKED');
    env.clock.advance(2_000);
    expect(await b.runCycle()).toMatchObject({ changed: 1 });
    b.start();
    await b.stop(); // a clean stop hands the lease over at once
    env.emulator.setState(two!, 'SUCCEEDED');
    env.clock.advance(2_000);
    // A is back: a new epoch, so a fresh catch-up listing; what B told is not told again.
    expect(await a.runCycle()).toMatchObject({ standby: false, changed: 1 });
    expect(await outcomes(one!)).toEqual(['BLOCKED']);
    expect(await outcomes(two!)).toEqual(['SUCCEEDED']);
    expect(await env.store.leases.holder('tracker', env.clock.t)).toMatchObject({ holder: 'A' });
  });

  it('the holder keeps its lease while its cycles are held back by a burst longer than the lease', async () => {
    const [id] = env.emulator.seedRuns(1, { state: 'INPROGRESS', manual: true });
    await env.track([id!]);
    const ttlMs = 600;
    let open = (): void => undefined;
    const burst = new Promise<void>((resolve) => (open = resolve));
    const a = env.tracker(
      {},
      env.store,
      { name: 'tracker', holder: 'A', ttlMs },
      { clear: () => burst },
    );
    const b = env.tracker({}, env.store, { name: 'tracker', holder: 'B', ttlMs });
    expect(await a.runCycle()).toMatchObject({ standby: false });
    a.start(); // its loop now waits at the gate: no cycle renews the lease
    try {
      for (let step = 0; step < 5; step += 1) {
        env.clock.advance(ttlMs / 2);
        // A renews by itself: its lease runs a whole length past the present.
        await vi.waitFor(
          async () =>
            expect((await env.store.leases.holder('tracker', env.clock.t))?.until).toBe(
              env.clock.t + ttlMs,
            ),
          { timeout: 5_000, interval: 20 },
        );
        expect(await b.runCycle()).toMatchObject({ standby: true });
      }
    } finally {
      open();
      await a.stop();
    }
    // A stopped cleanly: B takes the lease at once.
    expect(await b.runCycle()).toMatchObject({ standby: false });
  });
});
