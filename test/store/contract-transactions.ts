import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { freshStoreEachTest, samplePayload, sampleRun, sampleTrigger } from './harness.js';
import type { HarnessFactory } from './harness.js';

class Boom extends Error {}

export function describeTransactionContract(createHarness: HarnessFactory): void {
  describe('transactions', () => {
    const db = freshStoreEachTest(createHarness);

    it('commits everything written through tx together and returns the result', async () => {
      const id = await db.store.transaction(async (tx) => {
        await tx.runs.insert(sampleRun());
        await tx.threads.upsert(
          { threadKey: 'slack:T1:C1:100.1', platform: 'slack', currentRunId: 'run-1' },
          1,
        );
        return tx.outbox.enqueue(samplePayload('slack:T1:C1:100.1'), 1);
      });
      expect(id).toBeGreaterThan(0);
      expect(await db.store.runs.get('run-1')).toBeDefined();
      expect((await db.store.threads.get('slack:T1:C1:100.1'))?.currentRunId).toBe('run-1');
      expect(await db.store.outboxQueue.depth()).toBe(1);
    });

    it('rolls back everything when fn throws, and rethrows the same error', async () => {
      const boom = new Boom('stop');
      await expect(
        db.store.transaction(async (tx) => {
          await tx.runs.insert(sampleRun());
          await tx.inbox.add(sampleTrigger(), 1);
          await tx.settings.set('s', 'model', 'x', 'U1', 1);
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await db.store.runs.get('run-1')).toBeUndefined();
      expect(await db.store.inboxQueue.depth()).toBe(0);
      expect(await db.store.settings.list('s')).toEqual([]);
      // The store still works after a rollback.
      expect(await db.store.inbox.add(sampleTrigger(), 2)).toBe(true);
    });

    it('lets fn use the outer store without deadlocking; those writes join the transaction', async () => {
      await expect(
        db.store.transaction(async (tx) => {
          await tx.runs.insert(sampleRun());
          await db.store.runs.update('run-1', { state: 'RUNNING' }); // outer store, same transaction
          expect((await tx.runs.get('run-1'))?.state).toBe('RUNNING');
          throw new Boom('undo all');
        }),
      ).rejects.toBeInstanceOf(Boom);
      expect(await db.store.runs.get('run-1')).toBeUndefined();
    });

    it('keeps queries from outside out of a transaction in progress', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const order: string[] = [];
      const inTx = db.store.transaction(async (tx) => {
        await tx.inbox.add(sampleTrigger({ deliveryId: 'inside' }), 1);
        order.push('tx wrote');
        await gate;
        order.push('tx throws');
        throw new Boom('rollback');
      });
      await sleep(5);
      // Started outside the transaction: it must not be rolled back with it. On SQLite's one
      // connection it also waits for the transaction to end.
      const outside = db.store.inbox.add(sampleTrigger({ deliveryId: 'outside' }), 2).then((ok) => {
        order.push('outside wrote');
        return ok;
      });
      await sleep(20);
      if (db.harness.kind === 'sqlite') expect(order).toEqual(['tx wrote']);
      release();
      await expect(inTx).rejects.toBeInstanceOf(Boom);
      expect(await outside).toBe(true);
      if (db.harness.kind === 'sqlite')
        expect(order).toEqual(['tx wrote', 'tx throws', 'outside wrote']);
      const claimed = await db.store.inboxQueue.claim(10, 1000, 10);
      expect(claimed.map((i) => i.deliveryId)).toEqual(['outside']);
    });

    it('runs a nested db.store.transaction as a savepoint', async () => {
      await db.store.transaction(async (tx) => {
        await tx.settings.set('s', 'model', 'outer', 'U1', 1);
        await expect(
          db.store.transaction(async (inner) => {
            await inner.settings.set('s', 'env', 'inner', 'U1', 1);
            throw new Boom('inner only');
          }),
        ).rejects.toBeInstanceOf(Boom);
        await db.store.transaction((inner) => inner.settings.set('s', 'skill', 'kept', 'U1', 1));
      });
      expect((await db.store.settings.list('s')).map((s) => s.key)).toEqual(['model', 'skill']);
    });

    it('claims inside a transaction roll back with it', async () => {
      await db.store.inbox.add(sampleTrigger(), 0);
      await expect(
        db.store.transaction(async () => {
          expect(await db.store.inboxQueue.claim(1, 60_000, 10)).toHaveLength(1);
          throw new Boom('abort');
        }),
      ).rejects.toBeInstanceOf(Boom);
      expect(await db.store.inboxQueue.claim(2, 60_000, 10)).toHaveLength(1);
    });
  });
}
