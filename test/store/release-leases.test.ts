/** releaseLeases: at start-up (SQLite, one replica) the claims a dead process left go. */
import { describe, expect, it } from 'vitest';
import { createSqliteHarness, harnessPer, samplePayload, sampleTrigger } from './harness.js';

const A = 'slack:T1:C1:1.1';
const B = 'github:octo/repo:7';

describe('releaseLeases (SQLite)', () => {
  const temp = harnessPer(createSqliteHarness);

  it('frees claimed inbox items and notifications at once, counting the interrupted attempt', async () => {
    const crashed = await temp.open();
    await crashed.inbox.add(sampleTrigger({ deliveryId: 'Ev-1', threadKey: A }), 10);
    await crashed.inbox.add(sampleTrigger({ deliveryId: 'Ev-2', threadKey: B }), 11);
    await crashed.inbox.add(sampleTrigger({ deliveryId: 'Ev-3', threadKey: A }), 12);
    await crashed.outbox.enqueue(samplePayload(A, 'a1'), 10);
    await crashed.outbox.enqueue(samplePayload(B, 'b1'), 11);
    const claimed = await crashed.inboxQueue.claim(20, 120_000, 1);
    expect(claimed.map((i) => i.deliveryId)).toEqual(['Ev-1']);
    expect(await crashed.outboxQueue.claim(20, 120_000, 10)).toHaveLength(2);
    await crashed.close();

    // The restarted process: without a release nothing is claimable until the lease ends.
    const store = await temp.open();
    expect(await store.inboxQueue.claim(30, 120_000, 10)).toHaveLength(1); // Ev-2 only
    expect(await store.outboxQueue.claim(30, 120_000, 10)).toHaveLength(0);
    expect(await store.releaseLeases!(40)).toEqual({ inbox: 2, outbox: 2 });

    const again = await store.inboxQueue.claim(50, 120_000, 10);
    expect(again.map((i) => [i.deliveryId, i.attempts])).toEqual([
      ['Ev-1', 1],
      ['Ev-2', 1],
    ]);
    // A notification's interrupted delivery counts too: the next one looks before posting.
    const notes = await store.outboxQueue.claim(50, 120_000, 10);
    expect(notes.map((n) => n.attempts)).toEqual([1, 1]);
    // Nothing left to release; pending and finished rows are untouched.
    await store.inbox.complete(again[0]!.id, 60);
    expect(await store.releaseLeases!(70)).toEqual({ inbox: 1, outbox: 2 });
    expect(await store.inbox.get(again[0]!.id)).toMatchObject({ status: 'done', attempts: 1 });
    expect(await store.releaseLeases!(80)).toEqual({ inbox: 0, outbox: 0 });
    expect(await store.inboxQueue.depth()).toBe(2);
  });

  it('a notification claimed again after its lease ran out has that attempt counted', async () => {
    const store = await temp.open();
    await store.outbox.enqueue(samplePayload(A, 'a1'), 10);
    const [first] = await store.outboxQueue.claim(20, 1_000, 10);
    expect(first?.attempts).toBe(0);
    expect(await store.outboxQueue.claim(500, 1_000, 10)).toHaveLength(0); // still leased
    const [second] = await store.outboxQueue.claim(1_100, 1_000, 10); // lease over
    expect(second).toMatchObject({ id: first?.id, attempts: 1 });
    await store.outboxQueue.retryLater(second!.id, 1_200, 'boom');
    const [third] = await store.outboxQueue.claim(1_300, 1_000, 10);
    expect(third?.attempts).toBe(2); // a failed attempt counts once, not twice
    await store.close();
  });
});
