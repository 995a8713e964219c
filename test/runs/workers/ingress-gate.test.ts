/**
 * Ingress first: during a burst of requests the claim loop claims nothing; once the burst ends,
 * or has gone on past its maximum, it claims again. The gate's time is a hand-moved clock, so
 * nothing here depends on how fast the machine is: the real waits only give the loop a chance
 * to claim when it should not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createIngressGate, type IngressGate } from '../../../src/runs/workers/ingress-gate.js';
import { createPump, type Pump } from '../../../src/runs/workers/pump.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';
import { slackMention, startTestEnv } from '../fixtures.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Windows of 100 ms; 100 requests a second make a burst: 10 in a window. */
function gateAt(clock: { t: number }, maxBurstMs?: number): IngressGate {
  return createIngressGate({
    burstPerSecond: 100,
    windowMs: 100,
    now: () => clock.t,
    ...(maxBurstMs !== undefined ? { maxBurstMs } : {}),
  });
}

function arrive(gate: IngressGate, n: number): void {
  for (let i = 0; i < n; i++) gate.arrived();
}

let pump: Pump | undefined;
afterEach(async () => {
  await pump?.stop();
  pump = undefined;
});

/** A pump of 4 slots over a queue of 10 items, behind `gate`; `claims` records each claim. */
function gatedPump(gate: IngressGate) {
  const queue = Array.from({ length: 10 }, (_, i) => i);
  const claims: number[] = [];
  pump = createPump<number>({
    name: 'test',
    logger: createRecordingLogger(),
    concurrency: 4,
    pollMs: 60_000,
    drainMs: 100,
    claim: (limit) => {
      claims.push(limit);
      return Promise.resolve(queue.splice(0, limit));
    },
    process: () => Promise.resolve(),
    gate,
  });
  let claimed: number | undefined;
  const once = pump.runOnce().then((n) => (claimed = n));
  return { claims, once, claimed: () => claimed };
}

describe('the ingress-first gate', () => {
  it('below the burst rate the claim loop claims at once', async () => {
    const clock = { t: 0 };
    const gate = gateAt(clock);
    arrive(gate, 9);
    expect(gate.busy()).toBe(false);
    const { once, claims } = gatedPump(gate);
    expect(await once).toBe(4);
    expect(claims).toEqual([4]);
  });

  it('during a burst the claim loop claims nothing; once a window is quiet it claims', async () => {
    const clock = { t: 0 };
    const gate = gateAt(clock);
    arrive(gate, 20);
    const { once, claims, claimed } = gatedPump(gate);
    for (let w = 0; w < 5; w++) {
      clock.t += 100;
      arrive(gate, 20);
      await sleep(30);
      expect(gate.busy()).toBe(true);
      expect(claims).toEqual([]);
      expect(claimed()).toBeUndefined();
    }
    // The last busy window closes: still a burst, judged on the window just ended.
    clock.t += 100;
    await sleep(30);
    expect(claims).toEqual([]);
    // A quiet window: the burst is over and the loop claims every free slot.
    clock.t += 100;
    expect(await once).toBe(4);
    expect(claims).toEqual([4]);
    expect(gate.busy()).toBe(false);
  });

  it('a burst longer than the maximum no longer holds the loop; a quiet window re-arms it', async () => {
    const clock = { t: 0 };
    const gate = gateAt(clock, 1_000);
    arrive(gate, 20);
    const { once, claims } = gatedPump(gate);
    // Sustained arrivals: held back up to the maximum...
    while (clock.t < 900) {
      clock.t += 100;
      arrive(gate, 20);
      await sleep(20);
      expect(claims).toEqual([]);
    }
    // ...and no longer once the burst has lasted that long, though the arrivals go on.
    clock.t += 100;
    arrive(gate, 20);
    expect(gate.busy()).toBe(false);
    expect(await once).toBe(4);
    for (let w = 0; w < 3; w++) {
      clock.t += 100;
      arrive(gate, 20);
      expect(gate.busy()).toBe(false);
    }
    // A quiet window ends the sustained load; the next burst holds the workers again.
    clock.t += 200;
    expect(gate.busy()).toBe(false);
    arrive(gate, 20);
    expect(gate.busy()).toBe(true);
  });
});

describe('the gate behind the engine (noteArrival)', () => {
  async function floodedEngine(burstPerSecond: number) {
    const clock = { t: Date.now() + 1_000 };
    const env = await startTestEnv({
      options: { burstPerSecond },
      deps: { clock: { now: () => clock.t } },
    });
    expect(await env.engine.sink.accept(slackMention({ text: 'hello' }))).toBe('accepted');
    for (let i = 0; i < 1_000; i++) env.engine.noteArrival();
    let claimed: number | undefined;
    const once = env.engine.inbox.runOnce().then((n) => (claimed = n));
    return { env, clock, once, claimed: () => claimed };
  }

  it('holds the inbox during a burst of arrivals and lets it go once the burst is over', async () => {
    const { env, clock, once, claimed } = await floodedEngine(40);
    try {
      await sleep(150);
      expect(claimed()).toBeUndefined();
      expect(await env.store.inboxQueue.depth()).toBe(1);
      clock.t += 1_000;
      expect(await once).toBe(1);
    } finally {
      await once.catch(() => undefined);
      await env.close();
    }
  });

  it('burstPerSecond 0 (INGRESS_BURST_PER_SECOND=0): no gate, the inbox claims during a burst', async () => {
    const { env, once } = await floodedEngine(0);
    try {
      expect(await once).toBe(1);
    } finally {
      await env.close();
    }
  });
});
