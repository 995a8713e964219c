/**
 * Ingress first: during a burst of requests on a busy event loop, the workers wait (bounded)
 * and take one item at a time; otherwise they are not held back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createIngressPriority, type IngressPriority } from '../../src/runs/ingress-priority.js';
import { createPump } from '../../src/runs/pump.js';
import { createRecordingLogger } from '../helpers/test-logger.js';

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
afterEach(() => priority?.close());

describe('ingress priority', () => {
  it('is not busy when requests are few or the loop is idle', async () => {
    const p = (priority = createIngressPriority({ windowMs: 50, burstPerSecond: 100 }));
    p.arrived();
    await sleep(120);
    expect(p.busy()).toBe(false);
    // Many arrivals on an idle loop: nothing to make room for.
    for (let i = 0; i < 50; i++) p.arrived();
    await sleep(60);
    expect(p.busy()).toBe(false);
    const t0 = performance.now();
    await p.clear();
    expect(performance.now() - t0).toBeLessThan(20);
  });

  it('is busy during a burst on a busy loop; a claim waits at most maxDeferMs; it eases after', async () => {
    const p = (priority = createIngressPriority({
      windowMs: 50,
      burstPerSecond: 100,
      maxDeferMs: 150,
    }));
    let sawBusy = false;
    await spin(300, () => {
      p.arrived();
      sawBusy ||= p.busy();
    });
    expect(sawBusy).toBe(true);
    // Still busy (the last window was a burst), but the wait is bounded.
    const t0 = performance.now();
    const waiting = p.clear();
    await spin(400, () => p.arrived());
    await waiting;
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    // The burst is over: after a quiet window the workers go on at once.
    await sleep(150);
    expect(p.busy()).toBe(false);
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
