/**
 * The ingress's write on the caller's turn (SQLite): it lands at once when the connection is
 * idle, and otherwise steps aside (a transaction under way, another process's lock, a closed
 * store) for the ordinary asynchronous write, which keeps the inbox's order and its answers.
 */
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInboxSink } from '../../src/service/inbox-sink.js';
import { lockDatabase } from '../reliability/db-faults.js';
import { createSqliteHarness, sampleTrigger } from './harness.js';
import type { SqliteHarness } from './harness.js';

let temp: SqliteHarness;
beforeEach(async () => {
  temp = await createSqliteHarness();
});
afterEach(() => temp.cleanup());

const clock = { now: () => 1_000 };

describe('adding a trigger on the caller’s turn (SQLite)', () => {
  it('adds at once when the connection is idle; a repeated delivery id is a duplicate', async () => {
    const store = await temp.open();
    const trigger = sampleTrigger({ deliveryId: 'Ev-now', threadKey: 'slack:T1:C1:1.0' });
    expect(store.addTriggerNow?.(trigger, 1)).toBe(true);
    expect(store.addTriggerNow?.(trigger, 2)).toBe(false);
    const [item] = await store.inboxQueue.claim(10, 60_000, 10);
    expect(item).toMatchObject({ deliveryId: 'Ev-now', threadKey: 'slack:T1:C1:1.0', trigger });
    expect(await store.inbox.add(trigger, 3)).toBe(false); // the same row for the async path
  });

  it('steps aside while a transaction holds the connection, and nothing interleaves', async () => {
    const store = await temp.open();
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const tx = store.transaction(async (t) => {
      await t.inbox.add(sampleTrigger({ deliveryId: 'Ev-tx', threadKey: 'slack:T1:C1:2.0' }), 1);
      entered();
      await held;
      throw new Error('roll back');
    });
    await inside;
    const late = sampleTrigger({ deliveryId: 'Ev-late', threadKey: 'slack:T1:C1:2.0' });
    expect(store.addTriggerNow?.(late, 2)).toBeUndefined();
    finish();
    await expect(tx).rejects.toThrow('roll back');
    // The rolled-back transaction took nothing of ours with it.
    expect(store.addTriggerNow?.(late, 3)).toBe(true);
    const items = await store.inboxQueue.claim(10, 60_000, 10);
    expect(items.map((i) => i.deliveryId)).toEqual(['Ev-late']);
  });

  it('steps aside while another process holds the write lock; the sink then waits for it', async () => {
    const store = await temp.open({ busyTimeoutMs: 5_000 });
    const locker = lockDatabase(temp.path, 500);
    await locker.held;
    const trigger = sampleTrigger({ deliveryId: 'Ev-locked' });
    expect(store.addTriggerNow?.(trigger, 1)).toBeUndefined();
    const woken: string[] = [];
    const sink = createInboxSink({ store, clock, onAccepted: () => woken.push('wake') });
    await expect(sink.accept(trigger)).resolves.toBe('accepted');
    await locker.released;
    expect(woken).toEqual(['wake']);
    const [item] = await store.inboxQueue.claim(10_000, 60_000, 10);
    expect(item?.deliveryId).toBe('Ev-locked');
    await expect(store.ping()).resolves.toBeUndefined(); // the lock's busy error is cleared
  });

  it('steps aside once the store is closed', async () => {
    const store = await temp.open();
    await store.close();
    expect(store.addTriggerNow?.(sampleTrigger({ deliveryId: 'Ev-closed' }), 1)).toBeUndefined();
  });

  it('the sink takes the immediate path and still counts and wakes as before', async () => {
    const store = await temp.open();
    const woken: string[] = [];
    const sink = createInboxSink({ store, clock, onAccepted: () => woken.push('wake') });
    const trigger = sampleTrigger({ deliveryId: 'Ev-sink' });
    const pending = sink.accept(trigger);
    // Written before the caller awaits anything: on the caller's own turn (another reader
    // already sees it committed).
    const reader = new BetterSqlite3(temp.path, { readonly: true });
    const rows = reader.prepare('select delivery_id from inbox').all();
    reader.close();
    expect(rows).toEqual([{ delivery_id: 'Ev-sink' }]);
    await expect(pending).resolves.toBe('accepted');
    await expect(sink.accept(trigger)).resolves.toBe('duplicate');
    expect(woken).toEqual(['wake']);
  });
});
