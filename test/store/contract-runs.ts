import { describe, expect, it } from 'vitest';
import { freshStoreEachTest, sampleRun } from './harness.js';
import type { HarnessFactory } from './harness.js';

export function describeRunsContract(createHarness: HarnessFactory): void {
  describe('runs', () => {
    const db = freshStoreEachTest(createHarness);

    it('inserts and reads a run by id and by request id', async () => {
      const run = sampleRun({
        factory: { uid: 'f-1', alias: 'docs' },
        triggerMessage: { threadKey: 'slack:T1:C1:100.1', id: 'C1:100.1', url: 'https://x/p1' },
      });
      await db.store.runs.insert(run);
      expect(await db.store.runs.get('run-1')).toEqual(run);
      expect(await db.store.runs.getByRequest('req-1')).toEqual(run);
      expect(await db.store.runs.get('nope')).toBeUndefined();
      expect(await db.store.runs.getByRequest('nope')).toBeUndefined();
      // Optional fields that were not given stay absent (not undefined-valued keys).
      const plain = sampleRun({ runId: 'run-2', requestId: 'req-2' });
      await db.store.runs.insert(plain);
      expect(Object.keys((await db.store.runs.get('run-2'))!).sort()).toEqual(
        Object.keys(plain).sort(),
      );
    });

    it("keeps a run's spending limit and its open question, and a compare-and-set writes them", async () => {
      const run = sampleRun();
      await db.store.runs.insert(run);
      const seen = (await db.store.runs.get('run-1'))!;
      const review = { kind: 'plan', version: 2, status: 'open' } as const;
      expect(await db.store.runs.compareAndUpdate('run-1', seen, { capUsd: 2.5, review })).toBe(
        true,
      );
      const read = (await db.store.runs.get('run-1'))!;
      expect(read.capUsd).toBe(2.5);
      expect(read.review).toEqual(review);
      await db.store.runs.update('run-1', {
        review: { ...review, status: 'approved', decidedBy: 'alice' },
      });
      expect((await db.store.runs.get('run-1'))?.review).toEqual({
        ...review,
        status: 'approved',
        decidedBy: 'alice',
      });
    });

    it('refuses a second run with the same request id as a constraint StoreError', async () => {
      await db.store.runs.insert(sampleRun());
      await expect(db.store.runs.insert(sampleRun({ runId: 'run-other' }))).rejects.toMatchObject({
        name: 'StoreError',
        code: 'constraint',
        retryable: false,
      });
    });

    it('updates only the given fields and serializes JSON fields', async () => {
      await db.store.runs.insert(sampleRun());
      const statusMessage = { threadKey: 'slack:T1:C1:100.1', id: 'C1:100.2' };
      await db.store.runs.update('run-1', {
        state: 'RUNNING',
        statusMessage,
        applied: [{ key: 'mode', value: 'plan', source: 'default' }],
        tracked: false,
        updatedAt: 900,
      });
      const run = await db.store.runs.get('run-1');
      expect(run).toEqual({
        ...sampleRun(),
        state: 'RUNNING',
        statusMessage,
        applied: [{ key: 'mode', value: 'plan', source: 'default' }],
        tracked: false,
        updatedAt: 900,
      });
      await db.store.runs.update('run-1', {}); // no-op
      await db.store.runs.update('run-1', { requester: { id: 'U2' }, notifiedState: 'BLOCKED' });
      expect(await db.store.runs.get('run-1')).toMatchObject({
        requester: { id: 'U2' },
        notifiedState: 'BLOCKED',
        title: 'Fix the flaky test',
      });
      expect((await db.store.runs.get('run-1'))?.earlierRunMs).toBeUndefined();
      // Run time of earlier executions: beyond 32 bits, read back as a number.
      await db.store.runs.update('run-1', { earlierRunMs: 5_000_000_000 });
      expect((await db.store.runs.get('run-1'))?.earlierRunMs).toBe(5_000_000_000);
    });

    it('lists due and tracked runs, counts tracked, lists by thread', async () => {
      await db.store.runs.insert(sampleRun({ runId: 'r1', requestId: 'q1', nextCheckAt: 300 }));
      await db.store.runs.insert(sampleRun({ runId: 'r2', requestId: 'q2', nextCheckAt: 100 }));
      await db.store.runs.insert(sampleRun({ runId: 'r3', requestId: 'q3', nextCheckAt: 900 }));
      await db.store.runs.insert(
        sampleRun({
          runId: 'r4',
          requestId: 'q4',
          nextCheckAt: 50,
          tracked: false,
          threadKey: 'other',
          createdAt: 1,
        }),
      );

      expect((await db.store.runs.listDue(300, 10)).map((r) => r.runId)).toEqual(['r2', 'r1']);
      expect((await db.store.runs.listDue(1_000, 2)).map((r) => r.runId)).toEqual(['r2', 'r1']);
      expect((await db.store.runs.listTracked()).map((r) => r.runId)).toEqual(['r2', 'r1', 'r3']);
      expect((await db.store.runs.listTracked(1)).map((r) => r.runId)).toEqual(['r2']);
      expect(await db.store.runs.countTracked()).toBe(3);

      await db.store.runs.update('r2', { createdAt: 700 });
      expect(
        (await db.store.runs.listByThread('slack:T1:C1:100.1', 2)).map((r) => r.runId),
      ).toEqual(['r2', 'r3']);
      expect((await db.store.runs.listByThread('other', 10)).map((r) => r.runId)).toEqual(['r4']);
    });

    it('stops tracking a run whose stored JSON is damaged instead of failing every cycle', async () => {
      await db.store.runs.insert(sampleRun({ runId: 'good', requestId: 'q1' }));
      await db.store.runs.insert(sampleRun({ runId: 'bad', requestId: 'q2' }));
      await db.harness.exec("update runs set applied = '[{\"oops\":1}]' where run_id = 'bad'");

      expect((await db.store.runs.listDue(10_000, 10)).map((r) => r.runId)).toEqual(['good']);
      expect(await db.store.runs.countTracked()).toBe(1);
      await expect(db.store.runs.get('bad')).rejects.toMatchObject({ code: 'corrupt' });
    });

    it('handles many runs: 10,000 on SQLite (insert in one transaction, then listDue)', async () => {
      // PostgreSQL pays a loopback round trip per insert; fewer rows keep the file quick.
      const count = db.harness.kind === 'sqlite' ? 10_000 : 1_000;
      await db.store.transaction(async (tx) => {
        for (let i = 0; i < count; i += 1) {
          await tx.runs.insert(
            sampleRun({
              runId: `r${i}`,
              requestId: `q${i}`,
              nextCheckAt: i,
              tracked: i % 10 !== 0,
            }),
          );
        }
      });
      expect(await db.store.runs.countTracked()).toBe(count * 0.9);
      const due = await db.store.runs.listDue(count / 2, 100);
      expect(due).toHaveLength(100);
      expect(due[0]?.runId).toBe('r1');
      expect(due.every((r) => r.tracked && r.nextCheckAt <= count / 2)).toBe(true);
      expect(due.map((r) => r.nextCheckAt)).toEqual(
        [...due.map((r) => r.nextCheckAt)].sort((a, b) => a - b),
      );
    });
  });
}
