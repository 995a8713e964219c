/**
 * The operator console's queries on both databases: filtered listings, state history,
 * queue health, Retry/Discard guarded by the given-up status, and the change stamp.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { OperatorQueries } from '../../src/core/ports/index.js';
import { freshStoreEachTest, samplePayload, sampleRun, sampleTrigger } from './harness.js';
import type { HarnessFactory } from './harness.js';

export function describeOperatorContract(createHarness: HarnessFactory): void {
  describe('operator queries', () => {
    const db = freshStoreEachTest(createHarness);
    let op: OperatorQueries;
    beforeEach(() => {
      op = db.store.operator!;
    });

    it('lists runs newest first, filtered by state, platform, place and person', async () => {
      await db.store.runs.insert(
        sampleRun({
          runId: 'r1',
          requestId: 'q1',
          threadKey: 'slack:T1:C1:1.1',
          platform: 'slack',
          createdAt: 1,
          requester: { id: 'U1', name: 'Ann 100%' },
        }),
      );
      await db.store.runs.insert(
        sampleRun({
          runId: 'r2',
          requestId: 'q2',
          threadKey: 'github:acme/app#1',
          platform: 'github',
          createdAt: 2,
          state: 'SUCCEEDED',
          requester: { id: 'bob' },
        }),
      );
      await db.store.runs.insert(
        sampleRun({
          runId: 'r3',
          requestId: 'q3',
          threadKey: 'github:acme/app_x#2',
          platform: 'github',
          createdAt: 3,
          requester: { id: 'carol', name: 'Carol' },
        }),
      );
      const ids = async (f: Parameters<OperatorQueries['listRuns']>[0]) =>
        (await op.listRuns(f)).map((r) => r.runId);
      expect(await ids({ limit: 10 })).toEqual(['r3', 'r2', 'r1']);
      expect(await ids({ limit: 2 })).toEqual(['r3', 'r2']);
      expect(await ids({ limit: 10, createdBefore: 3 })).toEqual(['r2', 'r1']);
      expect(await ids({ limit: 10, state: 'SUCCEEDED' })).toEqual(['r2']);
      expect(await ids({ limit: 10, platform: 'slack' })).toEqual(['r1']);
      expect(await ids({ limit: 10, place: 'github:acme/app' })).toEqual(['r3', 'r2']);
      // `_` and `%` in a place or a name match themselves only.
      expect(await ids({ limit: 10, place: 'github:acme/app_' })).toEqual(['r3']);
      expect(await ids({ limit: 10, place: 'github:acme/app#1' })).toEqual(['r2']);
      expect(await ids({ limit: 10, person: 'BOB' })).toEqual(['r2']);
      expect(await ids({ limit: 10, person: 'car' })).toEqual(['r3']);
      expect(await ids({ limit: 10, person: '100%' })).toEqual(['r1']);
      expect(await ids({ limit: 10, person: '%' })).toEqual(['r1']);
      // An id matches whole (bob's id has an `o`); a name matches in part (Carol).
      expect(await ids({ limit: 10, person: 'o' })).toEqual(['r3']);
      expect(await ids({ limit: 10, person: 'zed' })).toEqual([]);
    });

    it('sorts runs by cost across all of them, pages by offset, and sums spend per thread', async () => {
      const put = (runId: string, threadKey: string, createdAt: number, costUsd?: number) =>
        db.store.runs.insert(
          sampleRun({
            runId,
            requestId: `q-${runId}`,
            threadKey,
            createdAt,
            ...(costUsd === undefined ? {} : { costUsd }),
          }),
        );
      await put('old-dear', 'slack:T1:C1:1.1', 10, 12.5);
      await put('mid', 'slack:T1:C1:1.2', 20, 0.25);
      await put('no-cost', 'github:acme/app#1', 30);
      await put('new-cheap', 'github:acme/app#1', 40, 0.000001);
      await put('mid-twin', 'github:acme/app#2', 50, 0.25);
      const ids = async (f: Parameters<OperatorQueries['listRuns']>[0]) =>
        (await op.listRuns(f)).map((r) => r.runId);
      expect(await ids({ limit: 10, sort: 'cost' })).toEqual([
        'old-dear',
        'mid-twin',
        'mid',
        'new-cheap',
        'no-cost',
      ]);
      expect(await ids({ limit: 2, sort: 'cost' })).toEqual(['old-dear', 'mid-twin']);
      expect(await ids({ limit: 2, sort: 'cost', offset: 2 })).toEqual(['mid', 'new-cheap']);
      expect(await ids({ limit: 2, sort: 'cost', offset: 4 })).toEqual(['no-cost']);
      expect(await ids({ limit: 10, sort: 'cost', place: 'slack:T1' })).toEqual([
        'old-dear',
        'mid',
      ]);

      const spend = (await op.spendByThread(20)).sort((a, b) =>
        a.threadKey.localeCompare(b.threadKey),
      );
      expect(spend).toEqual([
        { threadKey: 'github:acme/app#1', spentUsd: 0.000001, runs: 2, costed: 1 },
        { threadKey: 'github:acme/app#2', spentUsd: 0.25, runs: 1, costed: 1 },
        { threadKey: 'slack:T1:C1:1.2', spentUsd: 0.25, runs: 1, costed: 1 },
      ]);
      expect(await op.spendByThread(1_000)).toEqual([]);
    });

    it('records each different state once, inside the same transaction as the run', async () => {
      await db.store.runs.insert(
        sampleRun({ runId: 'h1', requestId: 'qh', state: 'QUEUED', createdAt: 5 }),
      );
      await db.store.runs.update('h1', { state: 'QUEUED', updatedAt: 6 });
      await db.store.runs.update('h1', { title: 'renamed' });
      await db.store.runs.update('h1', { state: 'INPROGRESS', updatedAt: 7 });
      await db.store.transaction(async (tx) =>
        tx.runs.update('h1', { state: 'SUCCEEDED', updatedAt: 9 }),
      );
      await db.store
        .transaction(async (tx) => {
          await tx.runs.update('h1', { state: 'FAILED', updatedAt: 10 });
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      expect(await op.stateHistory('h1')).toEqual([
        { state: 'QUEUED', at: 5 },
        { state: 'INPROGRESS', at: 7 },
        { state: 'SUCCEEDED', at: 9 },
      ]);
      expect(await op.stateHistory('none')).toEqual([]);
    });

    it("records the tracker's compare-and-set state changes too, only when they are written", async () => {
      await db.store.runs.insert(
        sampleRun({ runId: 'h2', requestId: 'qh2', state: 'QUEUED', createdAt: 5 }),
      );
      const seen = await db.store.runs.get('h2');
      if (!seen) throw new Error('run h2 missing');
      expect(
        await db.store.runs.compareAndUpdate('h2', seen, { state: 'INPROGRESS', updatedAt: 8 }),
      ).toBe(true);
      // A second writer that read the same row loses and leaves no history behind.
      expect(
        await db.store.runs.compareAndUpdate('h2', seen, { state: 'FAILED', updatedAt: 9 }),
      ).toBe(false);
      expect(await op.stateHistory('h2')).toEqual([
        { state: 'QUEUED', at: 5 },
        { state: 'INPROGRESS', at: 8 },
      ]);
    });

    it("finds a run's own trigger by its request id, whatever thread it is kept under", async () => {
      await db.store.inbox.add(
        sampleTrigger({ deliveryId: 'cmd:42.1', threadKey: 'slack:T1:C9:', kind: 'slash_command' }),
        10,
      );
      await db.store.inbox.add(sampleTrigger({ deliveryId: 'Ev7' }), 20);
      expect((await op.triggerOfRequest('slack:cmd:42.1'))?.threadKey).toBe('slack:T1:C9:');
      expect((await op.triggerOfRequest('slack:Ev7'))?.deliveryId).toBe('Ev7');
      // Another platform's delivery with that id is not this run's trigger.
      expect(await op.triggerOfRequest('github:Ev7')).toBeUndefined();
      expect(await op.triggerOfRequest('slack:nothing')).toBeUndefined();
      expect(await op.triggerOfRequest('no-platform')).toBeUndefined();
    });

    it('tells the queues apart and retries or discards only given-up items', async () => {
      const T = 'slack:T1:C1:2.2';
      const parked = await db.store.outbox.enqueue(samplePayload(T, 'p'), 100);
      await db.store.outboxQueue.park(parked, 'channel_not_found', 110);
      const waiting = await db.store.outbox.enqueue(samplePayload(T, 'w'), 120);
      await db.store.inbox.add(sampleTrigger({ deliveryId: 'd1', threadKey: T }), 90);
      await db.store.inbox.add(sampleTrigger({ deliveryId: 'd2', threadKey: T }), 95);
      const [claimed] = await db.store.inboxQueue.claim(130, 60_000, 1);
      await db.store.inbox.fail(claimed!.id, 'service_down', 140);

      expect(await op.queueHealth()).toEqual({
        inbox: { waiting: 1, processing: 0, failed: 1, oldestWaitingAt: 95 },
        outbox: { waiting: 1, parked: 1, oldestWaitingAt: 120 },
      });
      expect((await op.parkedNotifications(10)).map((n) => n.id)).toEqual([parked]);
      expect((await op.failedTriggers(10)).map((t) => t.deliveryId)).toEqual(['d1']);
      const items = await op.threadItems(await op.aliasesOf(T), 10);
      expect(items.notifications.map((n) => n.id)).toEqual([waiting, parked]);
      expect(items.triggers.map((t) => t.deliveryId)).toEqual(['d2', 'd1']);

      const before = await op.changeStamp();
      expect(await op.retry('notification', waiting, 200)).toBe(false);
      expect(await op.discard('notification', waiting)).toBe(false);
      expect(await op.retry('notification', parked, 200)).toBe(true);
      expect(await op.retry('notification', parked, 200)).toBe(false);
      expect(await op.changeStamp()).not.toBe(before);
      const [again] = await db.store.outboxQueue
        .list({ status: 'pending' })
        .then((l) => l.filter((n) => n.id === parked));
      expect(again).toMatchObject({ attempts: 0, nextAttemptAt: 200 });

      expect(await op.retry('trigger', claimed!.id, 210)).toBe(true);
      expect((await db.store.inbox.get(claimed!.id))?.status).toBe('pending');
      await db.store.inbox.fail(claimed!.id, 'again', 220);
      expect(await op.discard('trigger', claimed!.id)).toBe(true);
      expect(await db.store.inbox.get(claimed!.id)).toBeUndefined();
      expect(await op.queueHealth()).toMatchObject({ inbox: { failed: 0 }, outbox: { parked: 0 } });
    });
  });
}
