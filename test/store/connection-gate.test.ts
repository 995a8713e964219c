/**
 * SQLite's one connection: work a platform is waiting on (under a deadline) goes first, and
 * background statements give the event loop a turn before they queue, so a chain of them
 * cannot hold a newly arrived request until the chain ends.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConnectionGate } from '../../src/store/sqlite/connection-gate.js';
import { createSqliteHarness, sampleTrigger } from './harness.js';
import type { SqliteHarness } from './harness.js';

describe('the connection gate', () => {
  it('serves urgent waiters before background ones, each kind in arrival order', async () => {
    const gate = createConnectionGate();
    await gate.acquire(false);
    const served: string[] = [];
    const wait = (name: string, urgent: boolean) =>
      gate.acquire(urgent).then(() => {
        served.push(name);
        gate.release();
      });
    const all = [wait('b1', false), wait('u1', true), wait('b2', false), wait('u2', true)];
    await nextTurn(); // the background waiters have queued (they yield a turn first)
    await nextTurn();
    expect(gate.waiting()).toEqual({ urgent: 2, background: 2 });
    gate.release();
    await Promise.all(all);
    expect(served).toEqual(['u1', 'u2', 'b1', 'b2']);
    expect(gate.waiting()).toEqual({ urgent: 0, background: 0 });
    // Free again: the next taker gets it at once.
    await gate.acquire(true);
    gate.release();
  });

  it('a background taker lets callbacks that were already due run first', async () => {
    const gate = createConnectionGate();
    const order: string[] = [];
    setImmediate(() => order.push('due callback'));
    await gate.acquire(false);
    order.push('background acquired');
    gate.release();
    expect(order).toEqual(['due callback', 'background acquired']);
  });
  it('background takers waiting for the same turn get the connection on turns of their own', async () => {
    const gate = createConnectionGate();
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const grantedOn: number[] = [];
    // Five chains ask at once (as the tracker's do when several runs change together); each
    // holds the connection only for a statement, released within its own turn.
    await Promise.all(
      Array.from({ length: 5 }, () =>
        gate.acquire(false).then(() => {
          grantedOn.push(turn);
          gate.release();
        }),
      ),
    );
    ticking = false;
    // One per turn: the event loop (and a request waiting on the network) runs in between.
    expect(new Set(grantedOn).size).toBe(5);
    expect(grantedOn).toEqual([...grantedOn].sort((a, b) => a - b));
  });
});

describe('the gate in the SQLite store', () => {
  let temp: SqliteHarness;
  beforeEach(async () => {
    temp = await createSqliteHarness();
  });
  afterEach(() => temp.cleanup());

  it('a write under a deadline overtakes background writes queued before it', async () => {
    const store = await temp.open();
    let endTransaction = () => {};
    const held = new Promise<void>((resolve) => (endTransaction = resolve));
    const transaction = store.transaction(async (tx) => {
      await tx.inbox.add(sampleTrigger({ deliveryId: 'Ev-in-transaction' }), 1);
      await held;
    });
    await nextTurn();
    const background = store.inbox.add(sampleTrigger({ deliveryId: 'Ev-background' }), 2);
    await nextTurn();
    await nextTurn();
    const urgent = store.withDeadline!(2_000, () =>
      store.inbox.add(sampleTrigger({ deliveryId: 'Ev-urgent' }), 3),
    );
    await nextTurn();
    endTransaction();
    await Promise.all([transaction, background, urgent]);
    // Inbox ids follow the order of the inserts.
    const inOrder = await Promise.all([1, 2, 3].map((id) => store.inbox.get(id)));
    expect(inOrder.map((item) => item?.deliveryId)).toEqual([
      'Ev-in-transaction',
      'Ev-urgent',
      'Ev-background',
    ]);
  });

  it('background statements take the turn the store was given; work under a deadline does not', async () => {
    const turns: string[] = [];
    let label = '';
    const store = await temp.open({
      backgroundTurn: async () => {
        turns.push(label);
        await nextTurn();
      },
    });
    turns.length = 0; // opening the store (migrations) ran statements of its own
    label = 'background add';
    await store.inbox.add(sampleTrigger({ deliveryId: 'Ev-background' }), 1);
    label = 'background read';
    expect((await store.inbox.get(1))?.deliveryId).toBe('Ev-background');
    label = 'under a deadline';
    await store.withDeadline!(2_000, () =>
      store.inbox.add(sampleTrigger({ deliveryId: 'Ev-urgent' }), 2),
    );
    expect(turns).toEqual(['background add', 'background read']);
  });

  it('a background statement waits for its turn to end before it takes the connection', async () => {
    let holding = false;
    let endTurn = () => {};
    const store = await temp.open({
      backgroundTurn: () =>
        holding ? new Promise<void>((resolve) => (endTurn = resolve)) : nextTurn(),
    });
    holding = true;
    let added = false;
    const background = store.inbox
      .add(sampleTrigger({ deliveryId: 'Ev-held' }), 1)
      .then(() => (added = true));
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(added).toBe(false);
    // Meanwhile the connection is free for work under a deadline.
    await store.withDeadline!(2_000, () =>
      store.inbox.add(sampleTrigger({ deliveryId: 'Ev-urgent' }), 2),
    );
    expect(added).toBe(false);
    holding = false;
    endTurn();
    await background;
    expect((await store.withDeadline!(2_000, () => store.inbox.get(2)))?.deliveryId).toBe(
      'Ev-held',
    );
  });

  it('a chain of background statements gives the event loop a turn between statements', async () => {
    const store = await temp.open();
    await store.inbox.add(sampleTrigger({ deliveryId: 'Ev-1' }), 1);
    let done = 0;
    let ticking = true;
    const seenByTicks: number[] = [];
    const tick = () => {
      seenByTicks.push(done);
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    for (let i = 0; i < 20; i++) {
      await store.inbox.get(1);
      done += 1;
    }
    ticking = false;
    // Without the turn, the statements (promises only, no I/O) ran back to back and the
    // callback saw none of them until the end.
    expect(seenByTicks).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
