import { describe, expect, it } from 'vitest';
import type { AgentService } from '../../../src/core/ports/index.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { slackMention, slackReply, TEST_OPTIONS, testEnvPerTest } from '../fixtures.js';

const env = testEnvPerTest();

describe('inbox worker', () => {
  it('two quick messages in one thread: one run and a follow-up, never two runs', async () => {
    const first = slackMention({ text: 'start [slow]' });
    await env.engine.sink.accept(first);
    await env.engine.sink.accept(slackReply(first.threadKey, { text: 'and also this' }));
    env.engine.inbox.start();
    await waitUntil(
      async () => env.emulator.followups.length === 1 && (await env.store.inboxQueue.depth()) === 0,
    );
    expect(env.emulator.runs.count()).toBe(1);
    await env.engine.inbox.stop();
  });

  it("handles different threads concurrently, their creates bounded by the service lane's concurrency", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const real = env.agent;
    const counting: AgentService = {
      ...real,
      listRuns: (q, o) => real.listRuns(q, o),
      async createRun(request, options) {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          return await real.createRun(request, options);
        } finally {
          inFlight -= 1;
        }
      },
    };
    env.emulator.faults.setLatency(80);
    const engine = env.makeEngine(env.store, {
      agent: counting,
      options: { ...TEST_OPTIONS, inboxConcurrency: 6, serviceConcurrency: 3 },
    });
    for (let i = 0; i < 6; i += 1) await engine.sink.accept(slackMention({ text: `task ${i}` }));
    engine.inbox.start();
    await waitUntil(() => env.emulator.runs.count() === 6, { timeoutMs: 5_000 });
    await engine.inbox.stop();
    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(3);
  });

  it('renews the claim of a trigger whose create takes longer than the lease', async () => {
    const leaseMs = 300;
    env.emulator.faults.setLatency(6 * leaseMs);
    const engine = env.makeEngine(env.store, { options: { ...TEST_OPTIONS, leaseMs } });
    await engine.sink.accept(slackMention({ text: 'a slow create' }));
    engine.inbox.start();
    await waitUntil(() => env.emulator.requests.total() > 0, { timeoutMs: 2_000 });
    // Another worker (a second replica) looks well past the first lease: nothing to take.
    await new Promise((resolve) => setTimeout(resolve, 3 * leaseMs));
    expect(await env.store.inboxQueue.claim(Date.now(), leaseMs, 10)).toEqual([]);
    await waitUntil(() => env.emulator.runs.count() === 1, { timeoutMs: 5_000 });
    await engine.inbox.stop();
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(1);
  });

  it('a create held for six leases: a second worker polling all along never takes the trigger', async () => {
    const leaseMs = 300;
    env.emulator.faults.setLatency(6 * leaseMs);
    const options = { ...TEST_OPTIONS, leaseMs };
    // Two workers on one database, as two replicas (or two processes' pumps) would be.
    const first = env.makeEngine(env.store, { options });
    const second = env.makeEngine(env.store, { options });
    await first.sink.accept(slackMention({ text: 'a slow create' }));
    first.inbox.start();
    await waitUntil(() => env.emulator.requests.total() > 0, { timeoutMs: 2_000 });
    second.inbox.start();
    await waitUntil(() => env.emulator.runs.count() === 1, { timeoutMs: 5_000 });
    // Both keep polling past the end of the create: the trigger is done, not claimed again.
    await new Promise((resolve) => setTimeout(resolve, 2 * leaseMs));
    await Promise.all([first.inbox.stop(), second.inbox.stop()]);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(1);
    expect(env.emulator.runs.count()).toBe(1);
    expect(await env.store.inboxQueue.depth()).toBe(0);
  });

  it('stop() lets the in-flight item finish', async () => {
    env.emulator.faults.setLatency(150);
    await env.engine.sink.accept(slackMention({ text: 'finish me' }));
    env.engine.inbox.start();
    await waitUntil(() => env.emulator.requests.total() > 0 || env.emulator.runs.count() > 0, {
      timeoutMs: 2_000,
      intervalMs: 5,
    });
    await env.engine.inbox.stop();
    expect(env.emulator.runs.count()).toBe(1);
    expect(await env.store.inboxQueue.depth()).toBe(0);
    expect(await env.store.runs.listTracked()).toHaveLength(1);
  });
});
