/**
 * Waiting for a lock another process holds (SQLite): the wait does not block the event loop,
 * it ends when the lock is free or the busy budget is spent, and work under a deadline is
 * refused in time and never lands afterwards.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.js';
import { lockDatabase } from '../reliability/db-faults.js';
import { createSqliteHarness, sampleTrigger } from './harness.js';
import type { SqliteHarness } from './harness.js';

let temp: SqliteHarness;
beforeEach(async () => {
  temp = await createSqliteHarness();
});
afterEach(() => temp.cleanup());

/** Largest gap between timer ticks while `work` runs: how long the event loop was blocked. */
async function longestStall<T>(
  work: Promise<T>,
): Promise<{ result: PromiseSettledResult<T>; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  const [result] = await Promise.allSettled([work]);
  clearInterval(timer);
  return { result: result!, stallMs };
}

describe('a lock held by another process (SQLite)', () => {
  it('a write waits without blocking the event loop, and lands once the lock is free', async () => {
    const store = await temp.open({ busyTimeoutMs: 5_000 });
    const locker = lockDatabase(temp.path, 600);
    await locker.held;
    const t0 = Date.now();
    const { result, stallMs } = await longestStall(
      store.inbox.add(sampleTrigger({ deliveryId: 'Ev-wait' }), 1),
    );
    expect(result).toMatchObject({ status: 'fulfilled', value: true });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400); // it did wait for the lock
    expect(stallMs).toBeLessThan(200); // …in short slices, not one blocking sleep
    await locker.released;
  });

  it('gives up with a busy error when the budget is spent', async () => {
    const store = await temp.open({ busyTimeoutMs: 300 });
    const locker = lockDatabase(temp.path, 5_000);
    await locker.held;
    const err = await store.inbox
      .add(sampleTrigger({ deliveryId: 'Ev-late' }), 1)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect(err).toMatchObject({ code: 'busy', retryable: true });
    await expect(store.ping()).rejects.toMatchObject({ code: 'busy' });
    locker.release();
    await locker.released;
  });

  it('work under a deadline is refused in time and never lands later', async () => {
    const store = await temp.open({ busyTimeoutMs: 5_000 });
    const locker = lockDatabase(temp.path, 5_000);
    await locker.held;
    const t0 = Date.now();
    const err = await store.withDeadline!(300, () =>
      store.inbox.add(sampleTrigger({ deliveryId: 'Ev-deadline' }), 1),
    ).catch((e: unknown) => e);
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(err).toMatchObject({ code: 'busy' });
    locker.release();
    await locker.released;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await store.inbox.get(1)).toBeUndefined();
    // Work outside a deadline is not affected.
    expect(await store.inbox.add(sampleTrigger({ deliveryId: 'Ev-after' }), 2)).toBe(true);
  });
});
