import { describe, expect, it } from 'vitest';
import { freshStoreEachTest } from './harness.js';
import type { HarnessFactory } from './harness.js';

/** The status messages posted before their run existed ("Starting…"), by request id. */
export function describeStartMessagesContract(createHarness: HarnessFactory): void {
  describe('start messages', () => {
    const db = freshStoreEachTest(createHarness);

    it('is opened once per request; the posted message is kept', async () => {
      expect(await db.store.startMessages.get('slack:Ev1')).toBeUndefined();
      expect(await db.store.startMessages.open('slack:Ev1', 'slack:T1:C1:', 10)).toBe(true);
      expect(await db.store.startMessages.open('slack:Ev1', 'slack:T1:C1:', 20)).toBe(false);
      expect(await db.store.startMessages.get('slack:Ev1')).toEqual({
        requestId: 'slack:Ev1',
        threadKey: 'slack:T1:C1:',
        createdAt: 10,
      });
      const ref = { threadKey: 'slack:T1:C1:5.5', id: 'C1:5.5' };
      await db.store.startMessages.setMessage('slack:Ev1', ref);
      expect((await db.store.startMessages.get('slack:Ev1'))?.message).toEqual(ref);
    });

    it('records made before the cutoff are pruned, a batch at a time; newer ones stay', async () => {
      for (const [id, at] of [
        ['slack:Old1', 100],
        ['slack:Old2', 200],
        ['slack:Old3', 300],
        ['slack:New1', 600],
      ] as const) {
        await db.store.startMessages.open(id, 'slack:T1:C1:', at);
      }
      // At least three records qualify: a batch of two takes two.
      expect(await db.store.pruneFinished!(500, 2)).toMatchObject({ startMessages: 2 });
      let more = 1;
      while (more > 0) more = (await db.store.pruneFinished!(500, 2)).startMessages;
      for (const id of ['slack:Old1', 'slack:Old2', 'slack:Old3']) {
        expect(await db.store.startMessages.get(id)).toBeUndefined();
      }
      expect(await db.store.startMessages.get('slack:New1')).toBeDefined();
    });

    it('a rolled-back transaction leaves no row (so the acknowledgement is queued again)', async () => {
      await expect(
        db.store.transaction(async (tx) => {
          await tx.startMessages.open('slack:Ev2', 'slack:T1:C1:1.1', 10);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await db.store.startMessages.get('slack:Ev2')).toBeUndefined();
    });
  });
}
