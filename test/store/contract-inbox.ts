import { describe, expect, it } from 'vitest';
import { freshStoreEachTest, sampleTrigger } from './harness.js';
import type { HarnessFactory } from './harness.js';

const A = 'slack:T1:C1:1.1';
const B = 'github:octo/repo:7';

export function describeInboxContract(createHarness: HarnessFactory): void {
  describe('inbox', () => {
    const db = freshStoreEachTest(createHarness);

    async function add(deliveryId: string, threadKey: string, now = 0): Promise<void> {
      expect(await db.store.inbox.add(sampleTrigger({ deliveryId, threadKey }), now)).toBe(true);
    }
    const ids = (items: { deliveryId: string }[]): string[] => items.map((i) => i.deliveryId);

    it('accepts a delivery once and reports duplicates', async () => {
      const trigger = sampleTrigger({ deliveryId: 'Ev-dup' });
      expect(await db.store.inbox.add(trigger, 10)).toBe(true);
      expect(await db.store.inbox.add({ ...trigger, text: 'again' }, 20)).toBe(false);
      expect(await db.store.inboxQueue.depth()).toBe(1);
      const [item] = await db.store.inboxQueue.claim(30, 1000, 10);
      expect(item).toMatchObject({
        deliveryId: 'Ev-dup',
        threadKey: trigger.threadKey,
        status: 'processing',
        attempts: 0,
        nextAttemptAt: 10,
        waitNoticeSent: false,
        createdAt: 10,
      });
      expect(item?.trigger).toEqual(trigger);
      expect(await db.store.inbox.get(item!.id)).toEqual(item);
    });

    it('claims one item per thread, oldest first, and the next only after completion', async () => {
      await add('a1', A);
      await add('b1', B);
      await add('a2', A);
      await add('b2', B);
      await add('a3', A);

      const first = await db.store.inboxQueue.claim(100, 60_000, 10);
      expect(ids(first)).toEqual(['a1', 'b1']);
      expect(first.every((i) => i.status === 'processing')).toBe(true);
      // Both threads hold a live claim: nothing else comes out.
      expect(await db.store.inboxQueue.claim(101, 60_000, 10)).toEqual([]);

      await db.store.inbox.complete(first[0]!.id, 102);
      expect(ids(await db.store.inboxQueue.claim(103, 60_000, 10))).toEqual(['a2']);
      await db.store.inbox.fail(first[1]!.id, 'gave up', 104);
      expect(ids(await db.store.inboxQueue.claim(105, 60_000, 10))).toEqual(['b2']);
      expect(await db.store.inboxQueue.depth()).toBe(3); // a2, b2 processing; a3 pending
      expect((await db.store.inbox.get(first[1]!.id))?.lastError).toBe('gave up');
    });

    it('respects the limit, oldest heads first', async () => {
      await add('b1', B);
      await add('a1', A);
      expect(ids(await db.store.inboxQueue.claim(1, 1000, 1))).toEqual(['b1']);
      expect(ids(await db.store.inboxQueue.claim(1, 1000, 1))).toEqual(['a1']);
      expect(await db.store.inboxQueue.claim(1, 1000, 0)).toEqual([]);
    });

    it('takes expired leases first, then the oldest due, and stops at the limit', async () => {
      const C = 'slack:T1:C2:3.3';
      await add('a1', A, 0);
      await add('b1', B, 0);
      const [a1, b1] = await db.store.inboxQueue.claim(0, 100, 10);
      await db.store.inbox.retryLater(b1!.id, 400, 'service unavailable');
      await add('c1', C, 300);
      // At 500: a1's lease ran out (first), c1 was due at 300, b1's retry at 400.
      expect(ids(await db.store.inboxQueue.claim(500, 60_000, 1))).toEqual(['a1']);
      expect(ids(await db.store.inboxQueue.claim(500, 60_000, 1))).toEqual(['c1']);
      expect(ids(await db.store.inboxQueue.claim(500, 60_000, 5))).toEqual(['b1']);
      expect(a1?.deliveryId).toBe('a1');
    });

    it('claims from a backlog of thousands a few at a time, in order', async () => {
      const values = Array.from({ length: 3_000 }, (_, i) => i);
      for (const i of values) await add(`d${i}`, `slack:T1:C9:${i}.0`, i);
      expect(ids(await db.store.inboxQueue.claim(10_000, 60_000, 3))).toEqual(['d0', 'd1', 'd2']);
      expect(ids(await db.store.inboxQueue.claim(10_000, 60_000, 2))).toEqual(['d3', 'd4']);
      expect(await db.store.inboxQueue.depth()).toBe(3_000);
    });

    it('prunes finished items last touched before the cutoff, a batch at a time', async () => {
      for (const [id, t] of [
        ['a1', 0],
        ['b1', 10],
        ['c1', 20],
        ['d1', 30],
        ['e1', 40],
      ] as const) {
        await add(id, `slack:T1:C1:${id}.1`, t);
      }
      const claimed = await db.store.inboxQueue.claim(100, 60_000, 10);
      const byId = new Map(claimed.map((i) => [i.deliveryId, i.id]));
      await db.store.inbox.complete(byId.get('a1')!, 200);
      await db.store.inbox.fail(byId.get('b1')!, 'gave up', 210);
      await db.store.inbox.complete(byId.get('c1')!, 900); // finished after the cutoff
      await db.store.inbox.retryLater(byId.get('d1')!, 250, 'later'); // pending again
      // e1 stays claimed (processing)
      expect(await db.store.pruneFinished!(500, 1)).toMatchObject({ inbox: 1 });
      expect(await db.store.pruneFinished!(500, 10)).toMatchObject({ inbox: 1 });
      expect(await db.store.pruneFinished!(500, 10)).toMatchObject({ inbox: 0 });
      expect(await db.store.inbox.get(byId.get('a1')!)).toBeUndefined();
      expect(await db.store.inbox.get(byId.get('b1')!)).toBeUndefined();
      expect((await db.store.inbox.get(byId.get('c1')!))?.status).toBe('done');
      expect((await db.store.inbox.get(byId.get('d1')!))?.status).toBe('pending');
      expect((await db.store.inbox.get(byId.get('e1')!))?.status).toBe('processing');
      // A pruned delivery id is forgotten: the same delivery would be taken again.
      expect(
        await db.store.inbox.add(sampleTrigger({ deliveryId: 'a1', threadKey: A }), 1_000),
      ).toBe(true);
    });

    it("hands a crashed worker's item back when its lease runs out", async () => {
      await add('a1', A);
      await add('a2', A);
      const [claimed] = await db.store.inboxQueue.claim(1_000, 5_000, 10);
      expect(claimed?.deliveryId).toBe('a1');
      // The worker "crashes": no complete. Before the lease ends the thread stays blocked.
      expect(await db.store.inboxQueue.claim(5_999, 5_000, 10)).toEqual([]);
      const again = await db.store.inboxQueue.claim(6_000, 5_000, 10);
      expect(ids(again)).toEqual(['a1']);
      expect(again[0]?.id).toBe(claimed?.id);
      expect(again[0]?.attempts).toBe(0);
    });

    it('a renewed claim stays taken past its first lease; a finished one is not renewed', async () => {
      await add('a1', A);
      const [claimed] = await db.store.inboxQueue.claim(1_000, 5_000, 10);
      expect(await db.store.inboxQueue.renew(claimed!.id, 12_000, 4_000)).toBe(true);
      // Past the first lease (6,000) the item is still in hand.
      expect(await db.store.inboxQueue.claim(8_000, 5_000, 10)).toEqual([]);
      // A holder that stopped renewing has crashed: the item comes back after the renewed lease.
      expect(ids(await db.store.inboxQueue.claim(12_000, 5_000, 10))).toEqual(['a1']);
      await db.store.inbox.complete(claimed!.id, 13_000);
      expect(await db.store.inboxQueue.renew(claimed!.id, 30_000, 14_000)).toBe(false);
      expect((await db.store.inbox.get(claimed!.id))?.status).toBe('done');
    });

    it('survives a restart mid-claim: the lease is stored, not held in memory', async () => {
      await add('a1', A);
      await db.store.inboxQueue.claim(1_000, 5_000, 10);
      await db.store.close();
      const reopened = await db.harness.open();
      expect(await reopened.inboxQueue.claim(2_000, 5_000, 10)).toEqual([]);
      expect(ids(await reopened.inboxQueue.claim(6_000, 5_000, 10))).toEqual(['a1']);
    });

    it('retryLater delays the item and blocks later items of that thread only', async () => {
      await add('a1', A);
      await add('a2', A);
      await add('b1', B);
      await add('b2', B);
      const first = await db.store.inboxQueue.claim(0, 60_000, 10);
      expect(ids(first)).toEqual(['a1', 'b1']);
      const a1 = first[0]!;
      await db.store.inbox.retryLater(a1.id, 5_000, 'service unavailable', true);
      await db.store.inbox.complete(first[1]!.id, 10);

      // a1 waits for its retry time and keeps a2 behind it; B moves on.
      const [b2] = await db.store.inboxQueue.claim(20, 60_000, 10);
      expect(b2?.deliveryId).toBe('b2');
      await db.store.inbox.complete(b2!.id, 30);
      expect(await db.store.inboxQueue.claim(4_999, 60_000, 10)).toEqual([]);
      const retried = await db.store.inboxQueue.claim(5_000, 60_000, 10);
      expect(ids(retried)).toEqual(['a1']);
      expect(retried[0]).toMatchObject({
        attempts: 1,
        nextAttemptAt: 5_000,
        waitNoticeSent: true,
        lastError: 'service unavailable',
      });

      // A later retry without the flag keeps the notice state; attempts keep counting.
      await db.store.inbox.retryLater(a1.id, 6_000, 'still down');
      const [third] = await db.store.inboxQueue.claim(6_000, 60_000, 10);
      expect(third).toMatchObject({ deliveryId: 'a1', attempts: 2, waitNoticeSent: true });
    });

    describe('deferred triggers (first sign out, waiting for the service lane)', () => {
      it('keeps its thread behind it, out of every claim but the deferred one, oldest request first', async () => {
        const C = 'slack:T1:C2:3.3';
        await add('a1', A, 10);
        await add('a2', A, 11);
        await add('b1', B, 20);
        await add('c1', C, 5);
        const claimed = await db.store.inboxQueue.claim(100, 60_000, 10);
        expect(ids(claimed)).toEqual(['a1', 'b1', 'c1']);
        const [a1, b1, c1] = claimed;
        // Deferred in another order than the requests came: b1, then c1, then a1.
        await db.store.inbox.defer(b1!.id, 110);
        await db.store.inbox.defer(c1!.id, 120);
        await db.store.inbox.defer(a1!.id, 130);

        // Nothing for the ordinary claim, however late: a2 stays behind a1, and no lease runs out.
        expect(await db.store.inboxQueue.claim(1_000_000, 60_000, 10)).toEqual([]);
        expect(await db.store.inboxQueue.depth()).toBe(4);

        // Taken back by age of request (c1 came first), each a claim with a lease, attempts kept.
        const back = await db.store.inboxQueue.claimDeferred(200, 60_000, 2);
        expect(ids(back)).toEqual(['a1', 'c1']);
        expect(back.map((i) => i.resumed)).toEqual([true, true]);
        expect(back[0]).toMatchObject({ status: 'processing', attempts: 0, createdAt: 10 });
        // Their leases are live: not claimable again until they run out.
        expect(ids(await db.store.inboxQueue.claimDeferred(201, 60_000, 10))).toEqual(['b1']);
        expect(await db.store.inboxQueue.claimDeferred(202, 60_000, 10)).toEqual([]);
        expect(await db.store.inboxQueue.claim(60_199, 60_000, 10)).toEqual([]);
        // A resumed item whose process died comes back through the ordinary claim.
        expect(ids(await db.store.inboxQueue.claim(60_200, 60_000, 1))).toEqual(['a1']);

        // Finishing a1 lets a2 through (b1's and c1's leases ran out meanwhile).
        await db.store.inbox.complete(a1!.id, 60_300);
        expect(ids(await db.store.inboxQueue.claim(60_301, 60_000, 10))).toEqual([
          'a2',
          'b1',
          'c1',
        ]);
      });

      it('defers only a claimed item, and a restart leaves a deferred one deferred', async () => {
        await add('a1', A, 10);
        await add('b1', B, 10);
        const [a1] = await db.store.inboxQueue.claim(20, 60_000, 1);
        // b1 was never claimed: deferring it does nothing.
        const b1Id = a1!.id + 1;
        await db.store.inbox.defer(b1Id, 30);
        expect((await db.store.inbox.get(b1Id))?.status).toBe('pending');
        await db.store.inbox.defer(a1!.id, 30);
        expect(await db.store.releaseLeases(40)).toEqual({ inbox: 0, outbox: 0 });
        expect(await db.store.inbox.get(a1!.id)).toMatchObject({ status: 'deferred', attempts: 0 });
        expect(await db.store.inboxQueue.claimDeferred(50, 60_000, 0)).toEqual([]);
        expect(ids(await db.store.inboxQueue.claimDeferred(50, 60_000, 5))).toEqual(['a1']);
      });
    });

    describe('prompts that start their own thread (queued under the channel key)', () => {
      const CHANNEL = 'slack:T1:C1:';
      async function prompt(deliveryId: string, now = 0): Promise<void> {
        const trigger = sampleTrigger({
          deliveryId,
          threadKey: CHANNEL,
          kind: 'slash_command',
          anchorsNewThread: true,
        });
        expect(await db.store.inbox.add(trigger, now)).toBe(true);
      }
      const byDelivery = (items: { deliveryId: string; id: number }[], d: string): number =>
        items.find((i) => i.deliveryId === d)!.id;

      it('are claimed side by side, and keep their key for the run logic', async () => {
        await prompt('p1');
        await prompt('p2');
        await prompt('p3');
        await add('a1', A);
        const claimed = await db.store.inboxQueue.claim(10, 60_000, 10);
        expect(ids(claimed)).toEqual(['p1', 'p2', 'p3', 'a1']);
        expect(claimed.every((i) => i.threadKey === CHANNEL || i.threadKey === A)).toBe(true);
        expect(claimed[0]?.trigger.threadKey).toBe(CHANNEL);
        expect(await db.store.inboxQueue.claim(11, 60_000, 10)).toEqual([]);
      });

      it('a channel command waits for every prompt before it; a later prompt does not', async () => {
        await prompt('p1');
        await prompt('p2');
        await add('status', CHANNEL);
        await prompt('p3');
        // p3 came after the channel command: it waits for it, as the command waits for p1, p2.
        const first = await db.store.inboxQueue.claim(10, 60_000, 10);
        expect(ids(first)).toEqual(['p1', 'p2']);
        await db.store.inbox.complete(byDelivery(first, 'p2'), 20);
        expect(await db.store.inboxQueue.claim(21, 60_000, 10)).toEqual([]);
        await db.store.inbox.complete(byDelivery(first, 'p1'), 30);
        const second = await db.store.inboxQueue.claim(31, 60_000, 10);
        expect(ids(second)).toEqual(['status']);
        // The command is being handled (a live lease): the prompt after it still waits.
        expect(await db.store.inboxQueue.claim(32, 60_000, 10)).toEqual([]);
        await db.store.inbox.complete(second[0]!.id, 40);
        expect(ids(await db.store.inboxQueue.claim(41, 60_000, 10))).toEqual(['p3']);
      });

      it('prompts after a channel command wait for it, then go together', async () => {
        await add('config', CHANNEL);
        await prompt('p1');
        await prompt('p2');
        const [config] = await db.store.inboxQueue.claim(10, 60_000, 10);
        expect(config?.deliveryId).toBe('config');
        expect(await db.store.inboxQueue.claim(11, 60_000, 10)).toEqual([]);
        await db.store.inbox.retryLater(config!.id, 500, 'store busy');
        // Waiting for its retry, the command still holds the prompts behind it.
        expect(await db.store.inboxQueue.claim(100, 60_000, 10)).toEqual([]);
        const [again] = await db.store.inboxQueue.claim(500, 60_000, 10);
        expect(again?.deliveryId).toBe('config');
        await db.store.inbox.fail(again!.id, 'gave up', 510);
        expect(ids(await db.store.inboxQueue.claim(520, 60_000, 10))).toEqual(['p1', 'p2']);
      });

      it('a prompt waiting for a retry or a lost lease holds back channel commands only', async () => {
        await prompt('p1', 0);
        await add('list', CHANNEL, 1);
        await prompt('p2', 2);
        const first = await db.store.inboxQueue.claim(10, 1_000, 10);
        expect(ids(first)).toEqual(['p1']); // p2 came after `list`, which waits for p1
        await db.store.inbox.retryLater(first[0]!.id, 5_000, 'service unavailable');
        expect(await db.store.inboxQueue.claim(100, 1_000, 10)).toEqual([]);
        await prompt('p3', 200);
        // p3 is behind `list` as well: the channel's order holds until p1 is handled.
        expect(await db.store.inboxQueue.claim(300, 1_000, 10)).toEqual([]);
        const [p1] = await db.store.inboxQueue.claim(5_000, 1_000, 10);
        expect(p1?.deliveryId).toBe('p1');
        // The worker holding p1 crashes: until the lease runs out, `list` waits; after, p1
        // comes back first.
        expect(await db.store.inboxQueue.claim(5_999, 1_000, 10)).toEqual([]);
        const back = await db.store.inboxQueue.claim(6_000, 1_000, 10);
        expect(ids(back)).toEqual(['p1']);
        await db.store.inbox.complete(back[0]!.id, 6_100);
        const list = await db.store.inboxQueue.claim(6_200, 1_000, 10);
        expect(ids(list)).toEqual(['list']);
        await db.store.inbox.complete(list[0]!.id, 6_300);
        expect(ids(await db.store.inboxQueue.claim(6_400, 1_000, 10))).toEqual(['p2', 'p3']);
      });

      it('other threads keep one item at a time, even beside prompts of their channel', async () => {
        const T = 'slack:T1:C1:100.1';
        await prompt('p1');
        await add('t1', T);
        await add('t2', T);
        await prompt('p2');
        const claimed = await db.store.inboxQueue.claim(10, 60_000, 10);
        expect(ids(claimed)).toEqual(['p1', 't1', 'p2']);
        await db.store.inbox.complete(byDelivery(claimed, 't1'), 20);
        expect(ids(await db.store.inboxQueue.claim(21, 60_000, 10))).toEqual(['t2']);
      });
    });

    it('skips a corrupt row, marks it failed, and lets its thread continue', async () => {
      await add('a1', A);
      await add('a2', A);
      await db.harness.exec("update inbox set trigger = '{not json' where delivery_id = 'a1'");

      expect(await db.store.inboxQueue.claim(10, 1000, 10)).toEqual([]);
      expect(ids(await db.store.inboxQueue.claim(11, 1000, 10))).toEqual(['a2']);
      await expect(db.store.inbox.get(1)).rejects.toMatchObject({
        name: 'StoreError',
        code: 'corrupt',
      });
    });

    it('rejects a row whose JSON has the wrong shape', async () => {
      await add('a1', A);
      await db.harness.exec(`update inbox set trigger = '{"platform":"irc"}'`);
      expect(await db.store.inboxQueue.claim(10, 1000, 10)).toEqual([]);
      expect(await db.store.inboxQueue.depth()).toBe(0);
    });
  });
}
