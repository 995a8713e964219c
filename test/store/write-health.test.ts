/**
 * ping() (and so /readyz) fails while writes fail: `select 1` alone succeeds on a WAL database
 * whose write lock another process holds, or whose disk is full (the real full disk is in
 * test/reliability/outage-database.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/index.js';
import { createWriteHealth } from '../../src/store/write-health.js';
import { rejectionOf } from '../helpers/rejection.js';
import { createSqliteHarness, harnessPer, sampleTrigger } from './harness.js';

describe('ping while writes fail (SQLite)', () => {
  const temp = harnessPer(createSqliteHarness);

  it('fails with code busy after a write hit a held lock, and recovers on the next write', async () => {
    const store = await temp.open({ busyTimeoutMs: 50 });
    await store.ping();
    await temp.whileLocked(async () => {
      await expect(store.inbox.add(sampleTrigger(), 1)).rejects.toMatchObject({ code: 'busy' });
      const error = await rejectionOf(store.ping(), StoreError);
      expect(error).toMatchObject({ code: 'busy', message: expect.stringMatching(/^busy: /) });
    });
    // Reads alone do not clear it: nothing has shown that a write works again.
    await store.settings.list('s');
    await expect(store.ping()).rejects.toMatchObject({ code: 'busy' });
    // A transaction that takes the write lock and commits does (even without changing rows).
    await store.transaction((tx) => tx.settings.unset('s', 'model'));
    await store.ping();
  });

  it('a failed transaction begin (busy) also counts; a successful write clears it', async () => {
    const store = await temp.open({ busyTimeoutMs: 50 });
    await temp.whileLocked(async () => {
      await expect(
        store.transaction((tx) => tx.settings.unset('s', 'model')),
      ).rejects.toMatchObject({ code: 'busy' });
      await expect(store.ping()).rejects.toMatchObject({ code: 'busy' });
    });
    expect(await store.inbox.add(sampleTrigger(), 1)).toBe(true);
    await store.ping();
  });
});

describe('createWriteHealth', () => {
  const full = new StoreError('full', 'database error (SQLITE_FULL): database or disk is full');

  it('remembers write-blocking failures only', () => {
    const health = createWriteHealth();
    health.failed(new StoreError('constraint', 'unique'));
    health.failed(new StoreError('unknown', 'odd'));
    expect(health.failure()).toBeUndefined();
    for (const code of ['busy', 'full', 'readonly', 'corrupt'] as const) {
      health.failed(new StoreError(code, code));
      expect(health.failure()?.code).toBe(code);
      health.succeeded(true);
      expect(health.failure()).toBeUndefined();
    }
  });

  it('a full disk is cleared only by a write that changed rows, busy by any write', () => {
    const health = createWriteHealth();
    health.failed(full);
    health.succeeded(false); // e.g. an idle claim: an UPDATE of no rows proves no space
    expect(health.failure()).toBe(full);
    health.succeeded(true);
    expect(health.failure()).toBeUndefined();
    health.failed(new StoreError('busy', 'locked'));
    health.succeeded(false); // the lock was taken: it is free again
    expect(health.failure()).toBeUndefined();
  });
});
