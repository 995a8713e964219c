import { describe, expect, it } from 'vitest';
import { freshStoreEachTest, samplePayload } from './harness.js';
import type { HarnessFactory } from './harness.js';

const A = 'slack:T1:C1:1.1';
const B = 'github:octo/repo:7';

export function describeOutboxContract(createHarness: HarnessFactory): void {
  describe('outbox', () => {
    const db = freshStoreEachTest(createHarness);

    const texts = (items: { payload: { message?: unknown } }[]): string[] =>
      items.map((i) => (i.payload.message as { text: string }).text);

    it('enqueues and claims one notification per thread, in order', async () => {
      const a1 = await db.store.outbox.enqueue(samplePayload(A, 'a1'), 10);
      await db.store.outbox.enqueue(samplePayload(B, 'b1'), 11);
      await db.store.outbox.enqueue(samplePayload(A, 'a2'), 12);
      expect(a1).toBeGreaterThan(0);
      expect(await db.store.outboxQueue.depth()).toBe(3);

      const first = await db.store.outboxQueue.claim(20, 30_000, 10);
      expect(texts(first)).toEqual(['a1', 'b1']);
      expect(first[0]).toMatchObject({
        id: a1,
        threadKey: A,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: 10,
        createdAt: 10,
        payload: samplePayload(A, 'a1'),
      });
      // Leased: nothing more for either thread until delivered or the lease ends.
      expect(await db.store.outboxQueue.claim(21, 30_000, 10)).toEqual([]);

      await db.store.outboxQueue.delivered(a1, 22);
      expect(texts(await db.store.outboxQueue.claim(23, 30_000, 10))).toEqual(['a2']);
      expect(await db.store.outboxQueue.depth()).toBe(2);
    });

    it('claims one platform only when asked by thread-key prefix', async () => {
      await db.store.outbox.enqueue(samplePayload(A, 'a1'), 10);
      await db.store.outbox.enqueue(samplePayload(B, 'b1'), 11);
      const gh = await db.store.outboxQueue.claim(20, 30_000, 10, { threadKeyPrefix: 'github:' });
      expect(texts(gh)).toEqual(['b1']);
      const sl = await db.store.outboxQueue.claim(20, 30_000, 10, { threadKeyPrefix: 'slack:' });
      expect(texts(sl)).toEqual(['a1']);
    });

    it('keeps the low lane (refusals) apart: each lane has its own order per thread', async () => {
      await db.store.outbox.enqueue({ ...samplePayload(B, 'refusal'), lane: 'low' }, 10);
      await db.store.outbox.enqueue(samplePayload(B, 'status'), 11);
      const normal = await db.store.outboxQueue.claim(20, 30_000, 10, {
        threadKeyPrefix: 'github:',
        lane: 'normal',
      });
      // The member's status is not held behind the refusal queued before it in the thread.
      expect(texts(normal)).toEqual(['status']);
      const low = await db.store.outboxQueue.claim(20, 30_000, 10, {
        threadKeyPrefix: 'github:',
        lane: 'low',
      });
      expect(texts(low)).toEqual(['refusal']);
      expect(low[0]?.payload.lane).toBe('low');
    });

    it('next: the pending notification behind one in its thread and lane, if any', async () => {
      const a1 = await db.store.outbox.enqueue(samplePayload(A, 'a1'), 10);
      await db.store.outbox.enqueue(samplePayload(B, 'b1'), 11);
      await db.store.outbox.enqueue({ ...samplePayload(A, 'refusal'), lane: 'low' }, 12);
      const a2 = await db.store.outbox.enqueue(samplePayload(A, 'a2'), 13);
      const a3 = await db.store.outbox.enqueue(samplePayload(A, 'a3'), 14);
      const [first] = await db.store.outboxQueue.claim(20, 30_000, 10, {
        threadKeyPrefix: 'slack:',
      });
      expect(first?.id).toBe(a1);
      // Not the other thread's, nor the low lane's: the one this thread's lane delivers next.
      const next = await db.store.outboxQueue.next(first!);
      expect(next).toMatchObject({ id: a2, threadKey: A, status: 'pending' });
      expect(texts([next!])).toEqual(['a2']);
      const low = await db.store.outboxQueue.list({ threadKey: A });
      const refusal = low.find((i) => i.payload.lane === 'low')!;
      expect(await db.store.outboxQueue.next(refusal)).toBeUndefined();
      // Delivered ones are behind us: after a2 is delivered, a1's next is a3.
      await db.store.outboxQueue.delivered(a2, 21);
      expect((await db.store.outboxQueue.next(first!))?.id).toBe(a3);
      expect(await db.store.outboxQueue.next({ ...first!, id: a3 })).toBeUndefined();
    });

    it('a claim reads what is queued behind each item in its thread and lane', async () => {
      await db.store.outbox.enqueue(samplePayload(A, 'a1'), 10);
      await db.store.outbox.enqueue(samplePayload(B, 'b1'), 11);
      await db.store.outbox.enqueue({ ...samplePayload(A, 'refusal'), lane: 'low' }, 12);
      await db.store.outbox.enqueue(samplePayload(A, 'a2'), 13);
      const claimed = await db.store.outboxQueue.claim(20, 30_000, 10, { lane: 'normal' });
      expect(texts(claimed)).toEqual(['a1', 'b1']);
      // a1's thread has a2 behind it (not the refusal: another lane); b1's thread nothing.
      expect(claimed[0]?.next).toEqual(samplePayload(A, 'a2'));
      expect(claimed[1]?.next).toBeNull();
      const [refusal] = await db.store.outboxQueue.claim(20, 30_000, 10, { lane: 'low' });
      expect(refusal?.next).toBeNull();
      // An unreadable notification behind one leaves it unknown, never fails the claim.
      await db.store.outboxQueue.delivered(claimed[0]!.id, 21);
      const a3 = await db.store.outbox.enqueue(samplePayload(A, 'a3'), 22);
      await db.harness.exec(`update outbox set payload = '{not json' where id = ${a3}`);
      const [a2] = await db.store.outboxQueue.claim(23, 30_000, 10, { lane: 'normal' });
      expect(texts([a2!])).toEqual(['a2']);
      expect(a2).not.toHaveProperty('next');
    });

    it('tells a refusal once per person and thread within the window', async () => {
      const hour = 3_600_000;
      expect(await db.store.refusals.note(B, 'Mallory', 1_000, hour)).toBe(true);
      expect(await db.store.refusals.note(B, 'mallory', 2_000, hour)).toBe(false);
      expect(await db.store.refusals.note(B, 'eve', 2_000, hour)).toBe(true);
      expect(await db.store.refusals.note(A, 'mallory', 2_000, hour)).toBe(true);
      expect(await db.store.refusals.note(B, 'mallory', 1_000 + hour - 1, hour)).toBe(false);
      expect(await db.store.refusals.note(B, 'mallory', 1_000 + hour, hour)).toBe(true);
      expect(await db.store.refusals.note(B, 'mallory', 2_000 + hour, hour)).toBe(false);
    });

    it('gives a leased notification back after the lease expires', async () => {
      await db.store.outbox.enqueue(samplePayload(A, 'a1'), 0);
      expect(texts(await db.store.outboxQueue.claim(0, 1_000, 10))).toEqual(['a1']);
      expect(await db.store.outboxQueue.claim(999, 1_000, 10)).toEqual([]);
      expect(texts(await db.store.outboxQueue.claim(1_000, 1_000, 10))).toEqual(['a1']);
    });

    it('retryLater keeps per-thread order, other threads continue', async () => {
      const a1 = await db.store.outbox.enqueue(samplePayload(A, 'a1'), 0);
      await db.store.outbox.enqueue(samplePayload(A, 'a2'), 0);
      const b1 = await db.store.outbox.enqueue(samplePayload(B, 'b1'), 0);
      await db.store.outbox.enqueue(samplePayload(B, 'b2'), 0);
      await db.store.outboxQueue.claim(0, 60_000, 10);
      await db.store.outboxQueue.retryLater(a1, 5_000, 'rate limited');
      await db.store.outboxQueue.delivered(b1, 1);

      expect(texts(await db.store.outboxQueue.claim(2, 60_000, 10))).toEqual(['b2']);
      const [retried] = await db.store.outboxQueue.claim(5_000, 60_000, 10);
      expect(retried).toMatchObject({
        id: a1,
        attempts: 1,
        nextAttemptAt: 5_000,
        lastError: 'rate limited',
      });
    });

    it('claims the oldest due first across threads (a retry waits its turn)', async () => {
      const C = 'slack:T1:C2:3.3';
      const a1 = await db.store.outbox.enqueue(samplePayload(A, 'a1'), 0);
      await db.store.outboxQueue.claim(0, 60_000, 10);
      await db.store.outboxQueue.retryLater(a1, 400, 'rate limited');
      await db.store.outbox.enqueue(samplePayload(B, 'b1'), 300);
      await db.store.outbox.enqueue(samplePayload(C, 'c1'), 450);
      expect(texts(await db.store.outboxQueue.claim(500, 60_000, 1))).toEqual(['b1']);
      expect(texts(await db.store.outboxQueue.claim(500, 60_000, 1))).toEqual(['a1']);
      expect(texts(await db.store.outboxQueue.claim(500, 60_000, 1))).toEqual(['c1']);
    });

    it('prunes delivered and parked notifications last touched before the cutoff', async () => {
      const ids: number[] = [];
      for (const [i, t] of [
        ['n1', 0],
        ['n2', 10],
        ['n3', 20],
        ['n4', 30],
      ] as const) {
        ids.push(await db.store.outbox.enqueue(samplePayload(`slack:T1:C1:${i}.1`, i), t));
      }
      await db.store.outboxQueue.claim(100, 60_000, 10);
      await db.store.outboxQueue.delivered(ids[0]!, 200);
      await db.store.outboxQueue.park(ids[1]!, 'refused', 210);
      await db.store.outboxQueue.delivered(ids[2]!, 900); // after the cutoff
      // n4 stays pending (claimed)
      expect(await db.store.pruneFinished!(500, 10)).toEqual({
        inbox: 0,
        outbox: 2,
        startMessages: 0,
      });
      const left = await db.store.outboxQueue.list();
      expect(left.map((i) => i.id).sort()).toEqual([ids[2], ids[3]].sort());
    });

    it('parks a notification for good and moves on', async () => {
      const a1 = await db.store.outbox.enqueue(samplePayload(A, 'a1'), 0);
      await db.store.outbox.enqueue(samplePayload(A, 'a2'), 0);
      await db.store.outboxQueue.claim(0, 60_000, 10);
      await db.store.outboxQueue.park(a1, 'channel_not_found', 5);
      expect(texts(await db.store.outboxQueue.claim(6, 60_000, 10))).toEqual(['a2']);
      const parked = await db.store.outboxQueue.list({ status: 'parked' });
      expect(parked).toHaveLength(1);
      expect(parked[0]).toMatchObject({ id: a1, status: 'parked', lastError: 'channel_not_found' });
      // Parked on its first try: one attempt, not zero.
      expect(parked[0]!.attempts).toBe(1);
    });

    it('a parked notification keeps the count of every attempt, the last one included', async () => {
      const a1 = await db.store.outbox.enqueue(samplePayload(A, 'a1'), 0);
      await db.store.outboxQueue.claim(0, 60_000, 10);
      await db.store.outboxQueue.retryLater(a1, 10, 'rate limited');
      await db.store.outboxQueue.claim(10, 60_000, 10);
      await db.store.outboxQueue.retryLater(a1, 20, 'rate limited');
      await db.store.outboxQueue.claim(20, 60_000, 10);
      await db.store.outboxQueue.park(a1, 'rate limited', 25);
      const [parked] = await db.store.outboxQueue.list({ status: 'parked' });
      expect(parked).toMatchObject({ id: a1, attempts: 3, lastError: 'rate limited' });
    });

    it('lists by thread and status, oldest first', async () => {
      const a1 = await db.store.outbox.enqueue(samplePayload(A, 'a1'), 0);
      const b1 = await db.store.outbox.enqueue(samplePayload(B, 'b1'), 0);
      const a2 = await db.store.outbox.enqueue(samplePayload(A, 'a2'), 0);
      await db.store.outboxQueue.delivered(a1, 1);

      expect((await db.store.outboxQueue.list()).map((i) => i.id)).toEqual([a1, b1, a2]);
      expect((await db.store.outboxQueue.list({ threadKey: A })).map((i) => i.id)).toEqual([
        a1,
        a2,
      ]);
      expect((await db.store.outboxQueue.list({ status: 'delivered' })).map((i) => i.id)).toEqual([
        a1,
      ]);
      expect(
        (await db.store.outboxQueue.list({ threadKey: A, status: 'pending' })).map((i) => i.id),
      ).toEqual([a2]);
      expect(await db.store.outboxQueue.depth()).toBe(2);
    });

    it('keeps the full payload (status kind with run id, react kind with target)', async () => {
      const react = {
        kind: 'react' as const,
        destination: { threadKey: B },
        target: { threadKey: B, id: 'issue:42', url: 'https://github.com/octo/repo/issues/7#c42' },
        reaction: 'accepted' as const,
        observedAt: 123,
      };
      const id = await db.store.outbox.enqueue(react, 0);
      const [item] = await db.store.outboxQueue.list({ threadKey: B });
      expect(item).toMatchObject({ id, payload: react });
    });
  });
}
