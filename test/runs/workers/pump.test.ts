/**
 * The claim loop shared by the inbox and outbox workers: when it looks again for work.
 * Claims come from a plain function here, so each one the loop makes is counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPump } from '../../../src/runs/workers/pump.js';
import type { Pump } from '../../../src/runs/workers/pump.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';
import { waitUntil } from '../../helpers/wait-until.js';

let pump: Pump | undefined;
afterEach(async () => {
  await pump?.stop();
  pump = undefined;
});

/** A pump of 4 slots over a queue; items stay in hand until `finish()` is called. */
function queuePump(queue: number[], options: { gatherMs?: number } = {}) {
  const claims: number[] = [];
  const inHand = new Map<number, () => void>();
  const p = createPump<number>({
    name: 'test',
    logger: createRecordingLogger(),
    concurrency: 4,
    pollMs: 60_000, // only wake-ups make it look
    drainMs: 100,
    ...options,
    claim: (limit) => {
      claims.push(limit);
      return Promise.resolve(queue.splice(0, limit));
    },
    process: (item) => new Promise<void>((resolve) => inHand.set(item, resolve)),
  });
  const finish = (item: number) => {
    inHand.get(item)?.();
    inHand.delete(item);
  };
  return { pump: p, claims, inHand, finish };
}

describe('the claim loop', () => {
  it('after a claim that filled fewer slots than it asked for, waits to be woken', async () => {
    const q = queuePump([1]);
    pump = q.pump;
    pump.start();
    await waitUntil(() => q.inHand.has(1), { message: 'item 1 in hand' });
    // Three slots were free and one item came: nothing more to take, so no second look.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(q.claims).toEqual([4]);

    q.finish(1); // a finished item wakes the loop: its thread may have a next item
    await waitUntil(() => q.claims.length === 2, { message: 'a look after the finished item' });
    expect(q.claims).toEqual([4, 4]);
  });

  it('with a gathering time, what is finished and queued within it is taken in one claim', async () => {
    const queue = [1, 2, 3];
    const q = queuePump(queue, { gatherMs: 100 });
    pump = q.pump;
    pump.start();
    await waitUntil(() => q.inHand.size === 3, { message: 'three items in hand' });
    expect(q.claims).toEqual([4]);
    // Wakes 20 ms apart (three finished items, two newly queued): one look, after the wait.
    const later = () => new Promise((resolve) => setTimeout(resolve, 20));
    q.finish(1);
    await later();
    q.finish(2);
    queue.push(4, 5);
    pump.wake();
    await later();
    q.finish(3);
    await waitUntil(() => q.inHand.size === 2, { message: 'items 4 and 5 in hand' });
    expect(q.claims).toEqual([4, 4]);
  });

  it('after a claim that filled every slot it asked for, looks again at once', async () => {
    const q = queuePump([1, 2, 3, 4, 5, 6]);
    pump = q.pump;
    pump.start();
    await waitUntil(() => q.inHand.size === 4, { message: 'four items in hand' });
    expect(q.claims).toEqual([4]); // all slots taken: the loop waits for one to free up
    q.finish(1);
    await waitUntil(() => q.inHand.has(5), { message: 'item 5 in hand' });
    expect(q.claims).toEqual([4, 1]);
  });

  it('a wake that comes while a claim is running makes it look again', async () => {
    const claims: number[] = [];
    const queue = [1];
    let releaseClaim!: () => void;
    const p = createPump<number>({
      name: 'test',
      logger: createRecordingLogger(),
      concurrency: 4,
      pollMs: 60_000,
      drainMs: 100,
      claim: async (limit) => {
        claims.push(limit);
        const got = queue.splice(0, limit);
        if (claims.length === 1) await new Promise<void>((resolve) => (releaseClaim = resolve));
        return got;
      },
      process: () => new Promise<void>(() => undefined),
    });
    pump = p;
    p.start();
    await waitUntil(() => claims.length === 1);
    queue.push(2); // queued after the running claim read the queue…
    p.wake(); // …and woken while it runs
    releaseClaim();
    await waitUntil(() => claims.length >= 2, { message: 'a second look' });
    expect(queue).toEqual([]); // item 2 was taken by it
  });
});
