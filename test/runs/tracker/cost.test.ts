/**
 * Issue 7's cost target in miniature: 200 tracked runs whose states change at random, ~20%
 * per cycle, cycles of a 2 s interval. Both modes see every change; batch mode makes one
 * listing request per cycle, per-run mode one detail request per run per cycle (at the same
 * 2 s delay). Deterministic request counts, no timing assertions. Per-run mode plays the first
 * 2 cycles of the same scenario only (it writes every run every cycle, which is slow here).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { forwardState } from '../../../src/core/message/headline-order.js';
import type { TrackerMode } from '../../../src/runs/tracker/tracker.js';
import { seededRandom, startClockedEnv, type ClockedEnv } from './harness.js';

const N = 200;
const CYCLES = 10;
const PER_RUN_CYCLES = 2;
const STATES = ['QUEUED', 'PENDING', 'CLAIMED', 'INPROGRESS', 'BLOCKED'];

interface Outcome {
  changes: number;
  statusQueued: number;
  /** Changes that move a card's headline (a step back within an episode does not). */
  moves: number;
  lists: number[];
  details: number[];
  unseen: number;
}

const envs: ClockedEnv[] = [];
afterEach(async () => {
  for (const env of envs.splice(0)) await env.close();
});

async function scenario(mode: TrackerMode, cycles: number): Promise<Outcome> {
  const env = await startClockedEnv();
  envs.push(env);
  const ids = env.emulator.seedRuns(N, { state: 'INPROGRESS', manual: true });
  await env.track(ids);
  const tr = env.tracker({ mode });
  const random = seededRandom(7);
  const out: Outcome = {
    changes: 0,
    statusQueued: 0,
    moves: 0,
    lists: [],
    details: [],
    unseen: 0,
  };
  // What each card shows: a step back within an episode keeps the headline and edits nothing.
  const shown = new Map(ids.map((id) => [id, 'INPROGRESS']));
  for (let cycle = 0; cycle < cycles; cycle += 1) {
    env.clock.advance(2_000);
    for (const runId of ids) {
      if (random() >= 0.2) continue;
      const current = env.emulator.runs.get(runId)!.state;
      const others = STATES.filter((s) => s !== current);
      const next = others[Math.floor(random() * others.length)]!;
      env.emulator.setState(runId, next);
      out.changes += 1;
      const headline = forwardState(shown.get(runId), next);
      if (headline !== shown.get(runId)) out.moves += 1;
      shown.set(runId, headline);
    }
    // A follow-up's nudge only wakes the batch tracker: no detail fetch.
    tr.nudge(ids[cycle]!);
    env.emulator.requests.reset();
    await tr.runCycle();
    out.lists.push(env.emulator.requests.get('GET /agent/runs'));
    out.details.push(env.emulator.requests.get('GET /agent/runs/:id'));
    for (const runId of ids) {
      const record = await env.store.runs.get(runId);
      if (record?.state !== shown.get(runId)) out.unseen += 1;
    }
  }
  for (const runId of ids) out.statusQueued += await env.queued(runId, 'status');
  return out;
}

describe('tracking cost (200 runs, random changes)', () => {
  it('batch: one listing per cycle and every change seen; per-run: 200 details per cycle', async () => {
    const batch = await scenario('batch', CYCLES);
    const perRun = await scenario('per-run', PER_RUN_CYCLES);

    expect(batch.changes).toBeGreaterThan(N * CYCLES * 0.15);
    expect(batch.moves).toBeGreaterThan(batch.changes / 4);
    for (const mode of [batch, perRun]) {
      expect(mode.unseen).toBe(0);
      expect(mode.statusQueued).toBe(mode.moves);
    }
    expect(batch.lists).toEqual(Array(CYCLES).fill(1));
    expect(batch.details).toEqual(Array(CYCLES).fill(0));
    expect(perRun.lists).toEqual(Array(PER_RUN_CYCLES).fill(0));
    expect(perRun.details).toEqual(Array(PER_RUN_CYCLES).fill(N));

    const perCycle = (o: Outcome) =>
      [...o.lists, ...o.details].reduce((a, b) => a + b, 0) / o.lists.length;
    expect(perCycle(batch)).toBe(1);
    expect(perCycle(perRun)).toBe(N);
    expect(perCycle(perRun) / perCycle(batch)).toBeGreaterThanOrEqual(50);
  });
});

describe('tracking memory: a batch cycle reads what changed, not every tracked run', () => {
  it('1,000 tracked runs, one change per cycle: a few run records per cycle after the first', async () => {
    const env = await startClockedEnv();
    envs.push(env);
    const ids = env.emulator.seedRuns(1_000, { state: 'INPROGRESS', manual: true });
    await env.track(ids);
    env.clock.advance(10_000); // tracked a while ago (a cycle re-reads the last 2 s of writes)
    // Count the run records the store hands out, through the Store port.
    let records = 0;
    const counted =
      <A extends unknown[], R extends unknown[]>(fn: (...a: A) => Promise<R>) =>
      async (...a: A): Promise<R> => {
        const rows = await fn(...a);
        records += rows.length;
        return rows;
      };
    const runs = env.store.runs;
    const store = {
      ...env.store,
      runs: {
        ...runs,
        listTracked: counted(runs.listTracked.bind(runs)),
        listTrackedBrief: counted(runs.listTrackedBrief.bind(runs)),
        listWrittenSince: counted(runs.listWrittenSince.bind(runs)),
        getMany: counted(runs.getMany.bind(runs)),
        listDue: counted(runs.listDue.bind(runs)),
      },
    };
    const tr = env.tracker({ mode: 'batch' }, store);
    const perCycle: number[] = [];
    for (let cycle = 0; cycle < 6; cycle += 1) {
      env.clock.advance(2_000);
      env.emulator.setState(ids[cycle]!, 'BLOCKED');
      records = 0;
      await tr.runCycle();
      perCycle.push(records);
      expect((await env.store.runs.get(ids[cycle]!))?.state).toBe('BLOCKED');
    }
    // The first cycle after a start reads every tracked run once (small rows); afterwards a
    // cycle reads the records written since the last one and the runs its listing shows.
    expect(perCycle[0]).toBeGreaterThanOrEqual(1_000);
    for (const n of perCycle.slice(1)) expect(n).toBeLessThanOrEqual(5);
  });
});
