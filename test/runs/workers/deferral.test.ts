/**
 * The deferral rule (src/runs/workers/deferral.ts): which triggers step back after their first
 * sign, how many deferred ones the inbox takes back and when, and that the line keeps the
 * order the requests came in.
 */
import { describe, expect, it } from 'vitest';
import { createDeferral, type DeferCandidate } from '../../../src/runs/workers/deferral.js';

const fresh: DeferCandidate = { item: {}, mayHaveRunBefore: false, holds: false };

function deferral(admitted = 4, lookEveryMs = 1_000) {
  let paused = false;
  const d = createDeferral({ admitted, paused: () => paused, lookEveryMs });
  // A process starts not knowing whether an earlier one left deferred rows: the first claim
  // looks (and here finds none).
  expect(d.room(0)).toBe(admitted);
  d.taken(admitted, 0, 0);
  return { d, pause: (on: boolean) => (paused = on) };
}

describe('deferral', () => {
  it('admits up to its bound, then defers; what comes after a deferred trigger is deferred too', () => {
    const { d } = deferral(2);
    expect(d.shouldDefer(fresh)).toBe(false);
    expect(d.shouldDefer(fresh)).toBe(false);
    expect(d.shouldDefer(fresh)).toBe(true);
    // One admitted trigger is done: there is room, but a deferred one asked first.
    d.leave();
    expect(d.shouldDefer(fresh)).toBe(true);
  });

  it('never defers a resumed trigger, a retry or a trigger holding a budget', () => {
    const { d } = deferral(1);
    expect(d.shouldDefer(fresh)).toBe(false);
    expect(d.shouldDefer({ ...fresh, item: { resumed: true } })).toBe(false);
    expect(d.shouldDefer({ ...fresh, mayHaveRunBefore: true })).toBe(false);
    expect(d.shouldDefer({ ...fresh, holds: true })).toBe(false);
    expect(d.shouldDefer(fresh)).toBe(true);
  });

  it('defers everything while the service asked to be left alone, and takes nothing back', () => {
    const { d, pause } = deferral(4);
    pause(true);
    expect(d.shouldDefer(fresh)).toBe(true);
    expect(d.room(10)).toBe(0);
    pause(false);
    expect(d.room(10)).toBe(4);
  });

  it('takes deferred triggers back in batches of a quarter of its bound at least, and wakes the inbox for them', () => {
    const { d } = deferral(8);
    for (let i = 0; i < 8; i += 1) expect(d.shouldDefer(fresh)).toBe(false);
    expect(d.shouldDefer(fresh)).toBe(true);
    expect(d.room(0)).toBe(0);
    // One leaves: a room of one is not worth a claim.
    expect(d.leave()).toBe(false);
    expect(d.room(0)).toBe(0);
    expect(d.leave()).toBe(true);
    expect(d.room(0)).toBe(2);
    // Taken back: they count as admitted.
    d.taken(2, 2, 0);
    expect(d.room(0)).toBe(0);
    expect(d.shouldDefer(fresh)).toBe(true);
  });

  it('ends the backlog when a look finds fewer than it asked for, unless one was deferred meanwhile', () => {
    const { d } = deferral(4, 1_000);
    for (let i = 0; i < 4; i += 1) d.shouldDefer(fresh);
    // A deferral starts a backlog.
    expect(d.shouldDefer(fresh)).toBe(true);
    for (let i = 0; i < 4; i += 1) d.leave();
    // The inbox looks, and during the look one more steps back.
    expect(d.room(100)).toBe(4);
    expect(d.shouldDefer(fresh)).toBe(true);
    d.taken(4, 1, 100);
    // The look may have missed that one: the backlog goes on, and the next claim looks again.
    expect(d.room(101)).toBe(3);
    d.taken(3, 1, 101);
    // Now a look found less than it asked with nothing deferred meanwhile: the backlog is over,
    // new triggers go straight on, and the inbox looks again only every `lookEveryMs`.
    d.leave();
    d.leave();
    expect(d.shouldDefer(fresh)).toBe(false);
    expect(d.room(500)).toBe(0);
    expect(d.room(1_101)).toBe(3);
  });
});
