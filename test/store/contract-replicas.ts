/**
 * What replicas sharing one database rely on: the compare-and-set write of a run record
 * (two trackers deciding from the same read queue one notice, not two) and the named lease
 * that gives the tracker's cycle to one replica at a time. Each test opens two stores on one
 * database, as two processes would.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunItem } from '../../src/agent/schemas.js';
import type { AgentService, RunRecord } from '../../src/core/ports/index.js';
import { observeRun } from '../../src/runs/run-changes.js';
import { createRunObserver } from '../../src/runs/tracker/observe.js';
import { NOT_NOTIFIED } from '../../src/runs/run-changes.js';
import { writeRunChecked } from '../../src/runs/use-cases/write-run.js';
import { emptyCycleStats } from '../../src/runs/tracker/types.js';
import type { CycleStats } from '../../src/runs/tracker/types.js';
import type { OpenedStore } from '../../src/store/index.js';
import { createRecordingLogger } from '../helpers/test-logger.js';
import { sampleRun, twoReplicasEachTest } from './harness.js';
import type { HarnessFactory, StoreHarness } from './harness.js';

const INTERVALS = { baseMs: 2_000, maxMs: 30_000, blockedMs: 60_000 };

export function endedItem(runId: string, state = 'SUCCEEDED'): RunItem {
  return {
    run_id: runId,
    title: 'Fix the flaky test',
    prompt: 'fix the flaky test',
    state,
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:05:00.000Z',
    status_message: { message: 'done' },
    artifacts: [],
    run_time: '5m',
  } as RunItem;
}

export function emptyStats(): CycleStats {
  return emptyCycleStats('batch');
}

/** The tracker's one-run writer over `store`; it never asks the service (apply only). */
export function observerOn(store: OpenedStore, now: () => number) {
  const noService = new Proxy({} as AgentService, {
    get: () => () => Promise.reject(new Error('the service is not asked here')),
  });
  return createRunObserver({
    store,
    agent: noService,
    clock: { now },
    log: createRecordingLogger(),
    intervals: INTERVALS,
  });
}

async function outcomes(store: OpenedStore, runId: string): Promise<number> {
  const items = await store.outboxQueue.list();
  return items.filter((i) => i.payload.kind === 'post' && i.payload.runId === runId).length;
}

export function describeReplicaContract(createHarness: HarnessFactory): void {
  describe('replicas: compare-and-set on the run record', () => {
    const two = twoReplicasEachTest(createHarness);

    it('writes only while the guarded fields still hold what was read', async () => {
      await two.a.runs.insert(sampleRun());
      const seen = (await two.a.runs.get('run-1'))!;
      expect(
        await two.a.runs.compareAndUpdate('run-1', seen, { state: 'RUNNING', updatedAt: 600 }),
      ).toBe(true);
      // The same read again: state and updatedAt moved, so nothing is written.
      expect(await two.b.runs.compareAndUpdate('run-1', seen, { notifiedState: 'X' })).toBe(false);
      expect(await two.a.runs.get('run-1')).toMatchObject({ state: 'RUNNING', updatedAt: 600 });
      expect((await two.a.runs.get('run-1'))!.notifiedState).toBeUndefined();

      // Each guarded field alone makes a stale read lose.
      const fresh = (await two.a.runs.get('run-1'))!;
      const moves: Partial<RunRecord>[] = [
        { state: 'BLOCKED' },
        { serviceUpdatedAt: '2030-01-01T00:00:01.000Z' },
        { notifiedState: 'BLOCKED' },
        { tracked: false },
        { updatedAt: 700 },
      ];
      for (const move of moves) {
        const before = (await two.a.runs.get('run-1'))!;
        await two.b.runs.update('run-1', move);
        expect(await two.a.runs.compareAndUpdate('run-1', before, { title: 'stale' })).toBe(false);
      }
      expect((await two.a.runs.get('run-1'))!.title).toBe('Fix the flaky test');
      expect(fresh.state).toBe('RUNNING');
      // An unknown run, and an empty patch against a current read.
      expect(await two.a.runs.compareAndUpdate('nope', seen, { title: 'x' })).toBe(false);
      const now = (await two.a.runs.get('run-1'))!;
      expect(await two.a.runs.compareAndUpdate('run-1', now, {})).toBe(true);
    });

    it('two trackers deciding from the same read queue the final notice once', async () => {
      await two.a.runs.insert(sampleRun({ state: 'RUNNING' }));
      const item = endedItem('run-1');
      // Both read before either writes: the interleaving that queued a notice twice.
      const readByA = (await two.a.runs.get('run-1'))!;
      const readByB = (await two.b.runs.get('run-1'))!;
      const decideAndWrite = async (store: OpenedStore, record: RunRecord) =>
        store.transaction(async (tx) => {
          const seen = observeRun({ record, item, now: 1_000, intervals: INTERVALS });
          if (!(await tx.runs.compareAndUpdate('run-1', record, seen.patch))) return 0;
          for (const payload of seen.notifications) await tx.outbox.enqueue(payload, 1_000);
          return seen.notifications.filter((n) => n.kind === 'post').length;
        });
      expect(await decideAndWrite(two.a, readByA)).toBe(1);
      expect(await decideAndWrite(two.b, readByB)).toBe(0);
      expect(await outcomes(two.a, 'run-1')).toBe(1);

      // The tracker's own writer reads again after losing, and finds nothing left to tell.
      const stats = emptyStats();
      await observerOn(two.b, () => 1_100).apply('run-1', item, stats);
      expect(stats.notifications).toBe(0);
      expect(await outcomes(two.a, 'run-1')).toBe(1);
      expect(await two.a.runs.get('run-1')).toMatchObject({
        notifiedState: 'SUCCEEDED',
        tracked: false,
      });
    });

    it('a follow-up written after a tracker read is not overwritten by that tracker', async () => {
      await two.a.runs.insert(sampleRun({ state: 'SUCCEEDED', notifiedState: 'SUCCEEDED' }));
      const trackerRead = (await two.a.runs.get('run-1'))!;
      // A follow-up opens a new episode in between (another replica's inbox worker).
      await two.b.runs.update('run-1', { tracked: true, notifiedState: '', updatedAt: 900 });
      const unchanged = { ...endedItem('run-1'), updated_at: trackerRead.serviceUpdatedAt ?? '' };
      const stale = observeRun({
        record: trackerRead,
        item: unchanged,
        now: 950,
        intervals: INTERVALS,
      });
      expect(stale.patch.tracked).toBe(false);
      expect(await two.a.runs.compareAndUpdate('run-1', trackerRead, stale.patch)).toBe(false);
      expect(await two.a.runs.get('run-1')).toMatchObject({ tracked: true, notifiedState: '' });
    });
  });

  describe('replicas: a follow-up racing the tracker', () => {
    let temp: StoreHarness;
    let tracker: OpenedStore;
    let inbox: OpenedStore;
    beforeEach(async () => {
      temp = await createHarness();
      tracker = await temp.open();
      inbox = await temp.open();
    });
    afterEach(() => temp.cleanup());

    /** The follow-up's write (follow-up.ts) on another replica, whose clock reads `now`. */
    const followUpWrite = (now: number) =>
      inbox.transaction((tx) =>
        writeRunChecked(tx, 'run-1', (current) => ({
          tracked: true,
          nextCheckAt: now,
          notifiedState: NOT_NOTIFIED,
          earlierRunMs: (current.earlierRunMs ?? 0) + 60_000,
          updatedAt: now,
        })),
      );

    it('the tracker records the end first: told once, the follow-up lands after it', async () => {
      await tracker.runs.insert(sampleRun({ state: 'RUNNING', updatedAt: 500 }));
      // The follow-up's handling has read the run (still RUNNING) and sent the follow-up;
      // the tracker records the previous episode's end before the follow-up writes.
      const read = (await inbox.runs.get('run-1'))!;
      expect(read.state).toBe('RUNNING');
      const ended = endedItem('run-1');
      await observerOn(tracker, () => 1_000).apply('run-1', ended, emptyStats());
      expect(await outcomes(tracker, 'run-1')).toBe(1);
      // The follow-up's replica runs minutes behind: its write still moves the record on.
      expect(await followUpWrite(1_000 - 300_000)).toBe(true);
      const after = (await tracker.runs.get('run-1'))!;
      expect(after).toMatchObject({ state: 'SUCCEEDED', notifiedState: '', tracked: true });
      expect(after.updatedAt, 'the write time never moves backwards').toBeGreaterThan(1_000);
      expect((await tracker.runs.listWrittenSince(1_000)).map((r) => r.runId)).toContain('run-1');
      // The same end seen again is not told again; the next episode's end is told once.
      const stats = emptyStats();
      await observerOn(tracker, () => 2_000).apply('run-1', ended, stats);
      expect(stats.notifications).toBe(0);
      const next = { ...endedItem('run-1'), updated_at: '2030-01-01T00:09:00.000Z' };
      await observerOn(tracker, () => 3_000).apply('run-1', next, emptyStats());
      expect(await outcomes(tracker, 'run-1')).toBe(2);
    });

    it('the follow-up writes first: the tracker reads again and tells the end once', async () => {
      await tracker.runs.insert(sampleRun({ state: 'RUNNING', updatedAt: 500 }));
      const trackerRead = (await tracker.runs.get('run-1'))!;
      expect(await followUpWrite(400)).toBe(true);
      const ended = endedItem('run-1');
      // The decision made from the read before the follow-up loses ...
      const stale = observeRun({
        record: trackerRead,
        item: ended,
        now: 1_000,
        intervals: INTERVALS,
      });
      expect(await tracker.runs.compareAndUpdate('run-1', trackerRead, stale.patch)).toBe(false);
      // ... and the tracker's writer, reading again, tells it once, and only once.
      await observerOn(tracker, () => 1_000).apply('run-1', ended, emptyStats());
      await observerOn(tracker, () => 1_100).apply('run-1', ended, emptyStats());
      expect(await outcomes(tracker, 'run-1')).toBe(1);
      expect(await tracker.runs.get('run-1')).toMatchObject({
        state: 'SUCCEEDED',
        notifiedState: 'SUCCEEDED',
        earlierRunMs: 60_000,
      });
    });
  });

  describe('replicas: the named lease', () => {
    const two = twoReplicasEachTest(createHarness);

    it('one holder at a time; renewed by its holder, taken by another only once it runs out', async () => {
      expect(await two.a.leases.acquire('tracker', 'A', 1_000, 500)).toEqual({ epoch: 1 });
      expect(await two.b.leases.acquire('tracker', 'B', 1_200, 500)).toBeUndefined();
      expect(await two.a.leases.acquire('tracker', 'A', 1_400, 500)).toEqual({ epoch: 1 });
      expect(await two.b.leases.holder('tracker', 1_500)).toEqual({
        holder: 'A',
        epoch: 1,
        until: 1_900,
      });
      // A dies: nothing renews; B takes over at the end of the lease, never before.
      expect(await two.b.leases.acquire('tracker', 'B', 1_899, 500)).toBeUndefined();
      expect(await two.b.leases.acquire('tracker', 'B', 1_900, 500)).toEqual({ epoch: 2 });
      expect(await two.a.leases.acquire('tracker', 'A', 2_000, 500)).toBeUndefined();
      // A clean stop hands it over at once; the epoch tells A someone held it in between.
      await two.b.leases.release('tracker', 'B');
      await two.a.leases.release('tracker', 'B'); // releasing another's lease is harmless
      expect(await two.a.leases.holder('tracker', 2_100)).toBeUndefined();
      expect(await two.a.leases.acquire('tracker', 'A', 2_100, 500)).toEqual({ epoch: 3 });
      await two.a.leases.release('tracker', 'B');
      expect(await two.b.leases.acquire('tracker', 'B', 2_200, 500)).toBeUndefined();
      // Other names are other leases.
      expect(await two.b.leases.acquire('other', 'B', 2_200, 500)).toEqual({ epoch: 1 });
    });

    it('of many replicas asking at once, exactly one gets it', async () => {
      const stores = [two.a, two.b, await two.harness.open(), await two.harness.open()];
      for (let round = 0; round < 5; round += 1) {
        const now = 10_000 * (round + 1);
        const answers = await Promise.all(
          stores.map((s, i) => s.leases.acquire('tracker', `R${round}-${i}`, now, 1_000)),
        );
        expect(answers.filter((x) => x !== undefined)).toHaveLength(1);
      }
    });
  });
}
