/**
 * Ingress first: during a burst of requests the workers wait for it to end; otherwise, and
 * once a burst has gone on past maxBurstMs, they are not held back, but just after a request
 * their next step begins on a timer turn (the answer's reader gets the CPU first).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createIngressPriority,
  type IngressPriority,
} from '../../../src/runs/workers/ingress-priority.js';
import { createPump } from '../../../src/runs/workers/pump.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keep the event loop busy for `ms`, yielding every few ms (as request handling does). */
async function spin(ms: number, during?: () => void): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const slice = performance.now() + 4;
    while (performance.now() < slice) {
      // busy
    }
    during?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

let priority: IngressPriority | undefined;
afterEach(() => {
  priority?.close();
  vi.useRealTimers();
});

describe('ingress priority', () => {
  /** Arrivals at `perSecond` for `ms`, spread over the time (as a load generator sends). */
  async function arrive(p: IngressPriority, perSecond: number, ms: number, seen?: boolean[]) {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      p.arrived();
      seen?.push(p.busy());
      await sleep(1000 / perSecond);
    }
  }

  it('is not busy while requests are few; a claim then goes on at once', async () => {
    const p = (priority = createIngressPriority({ windowMs: 50, burstPerSecond: 100 }));
    const seen: boolean[] = [];
    await arrive(p, 40, 300, seen);
    expect(seen.some(Boolean)).toBe(false);
    const t0 = performance.now();
    await p.clear();
    expect(performance.now() - t0).toBeLessThan(20);
  });

  it('is busy during a burst, on an idle loop too; a claim waits for the burst to end', async () => {
    const p = (priority = createIngressPriority({ windowMs: 50, burstPerSecond: 100 }));
    // Many arrivals, yet the loop mostly sleeps: the workers make room all the same (their
    // own work would otherwise be what keeps the loop busy).
    for (let i = 0; i < 20; i++) p.arrived();
    expect(p.busy()).toBe(true);
    const t0 = performance.now();
    let cleared: number | undefined;
    const waiting = p.clear().then(() => (cleared = performance.now()));
    const burstEnd = performance.now() + 300;
    await spin(300, () => p.arrived());
    expect(cleared).toBeUndefined();
    // The burst is over: after a quiet window the workers go on.
    await waiting;
    expect(cleared! - t0).toBeGreaterThanOrEqual(290);
    expect(cleared! - burstEnd).toBeLessThan(1_000);
    expect(p.busy()).toBe(false);
  });

  it('a claim waiting for a burst that outlasts maxBurstMs goes on after maxBurstMs', async () => {
    const p = (priority = createIngressPriority({
      windowMs: 50,
      burstPerSecond: 100,
      maxBurstMs: 300,
    }));
    for (let i = 0; i < 20; i++) p.arrived();
    let cleared: number | undefined;
    const t0 = performance.now();
    void p.clear().then(() => (cleared = performance.now()));
    await arrive(p, 400, 900);
    expect(cleared).toBeDefined();
    expect(cleared! - t0).toBeGreaterThanOrEqual(250);
    expect(cleared! - t0).toBeLessThan(800);
  });

  it('stops holding the workers back when a burst outlasts maxBurstMs, and re-arms after a quiet window', async () => {
    const p = (priority = createIngressPriority({
      windowMs: 50,
      burstPerSecond: 100,
      maxBurstMs: 300,
    }));
    const early: boolean[] = [];
    await arrive(p, 400, 200, early);
    expect(early.slice(-10).every(Boolean)).toBe(true);
    // Sustained load: past maxBurstMs the workers are no longer held back.
    const late: boolean[] = [];
    await arrive(p, 400, 400, late);
    expect(late.slice(-10).some(Boolean)).toBe(false);
    // A quiet spell ends it; the next burst holds them back again.
    await sleep(150);
    const next: boolean[] = [];
    await arrive(p, 400, 100, next);
    expect(next.slice(-5).every(Boolean)).toBe(true);
  });

  it('just after a request, a worker step begins on a timer turn; later, on the next check phase', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'setInterval'],
    });
    let t = 1_000;
    const p = (priority = createIngressPriority({
      windowMs: 50,
      burstPerSecond: 1_000,
      settleMs: 20,
      now: () => t,
    }));
    /** Starts a step; `value` tells whether it has begun. */
    const step = () => {
      const began = { value: false };
      void p.clear().then(() => (began.value = true));
      return began;
    };

    p.arrived();
    t += 5; // 5 ms after the request: its answer may still be waiting for its reader
    const soon = step();
    await vi.advanceTimersByTimeAsync(0); // immediates run, no time passes
    expect(p.busy()).toBe(false);
    expect(soon.value).toBe(false);
    await vi.advanceTimersByTimeAsync(1); // the timer turn
    expect(soon.value).toBe(true);

    t += 20; // 25 ms after it: a step goes on at the next check phase, without a timer
    const later = step();
    await vi.advanceTimersByTimeAsync(0);
    expect(later.value).toBe(true);

    const never = createIngressPriority({ settleMs: 0, now: () => t });
    never.arrived();
    let began = false;
    void never.clear().then(() => (began = true));
    await vi.advanceTimersByTimeAsync(0);
    never.close();
    expect(began).toBe(true);
  });

  it('turn(): a timer turn just after a request (background work lets the answer be read), else the check phase', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'setInterval'],
    });
    let t = 1_000;
    const p = (priority = createIngressPriority({ settleMs: 20, now: () => t }));
    const turned = () => {
      const done = { value: false };
      void p.turn().then(() => (done.value = true));
      return done;
    };

    const before = turned(); // no request yet
    await vi.advanceTimersByTimeAsync(0);
    expect(before.value).toBe(true);

    p.arrived();
    t += 19;
    const soon = turned();
    await vi.advanceTimersByTimeAsync(0);
    expect(soon.value).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(soon.value).toBe(true);

    t += 1; // 20 ms after the request: the window is over
    const later = turned();
    await vi.advanceTimersByTimeAsync(0);
    expect(later.value).toBe(true);
  });

  it('a pump claims one item at a time while busy, all it may otherwise', async () => {
    let busy = true;
    const limits: number[] = [];
    const pump = createPump<number>({
      name: 'test',
      logger: createRecordingLogger(),
      concurrency: 4,
      pollMs: 10,
      drainMs: 100,
      claim: (limit) => {
        limits.push(limit);
        return Promise.resolve([1, 2, 3, 4].slice(0, limit));
      },
      process: () => Promise.resolve(),
      priority: { busy: () => busy, clear: () => Promise.resolve() },
    });
    expect(await pump.runOnce()).toBe(1);
    busy = false;
    expect(await pump.runOnce()).toBe(4);
    expect(limits).toEqual([1, 4]);
  });
});
