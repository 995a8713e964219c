/**
 * A claim-and-process loop shared by the inbox and outbox workers: claims as many items as
 * it has free slots, processes them concurrently, claims again as slots free up, and sleeps
 * `pollMs` (or until woken) when there is nothing to do. `stop()` drains in-flight items,
 * bounded by `drainMs`.
 */
import type { Logger } from '../../core/ports/index.js';
import { createWaiter } from './backoff.js';
import type { ClaimGate } from './ingress-gate.js';

export interface Pump {
  start(): void;
  /** Stop claiming; let in-flight items finish (bounded). */
  stop(): Promise<void>;
  /** Look for work now (the ingress or a use case just queued some). */
  wake(): void;
  /** Claim once and process what was claimed; resolves with the number of items. */
  runOnce(): Promise<number>;
}

export function createPump<T>(deps: {
  name: string;
  logger: Logger;
  concurrency: number;
  pollMs: number;
  drainMs: number;
  claim(limit: number): Promise<T[]>;
  process(item: T): Promise<void>;
  /** Ingress first: before each claim, wait for a burst of requests to end (ingress-gate.ts). */
  gate?: ClaimGate;
  /**
   * After being woken, wait this long before claiming (default 0), so what is queued and
   * finished meanwhile is taken in one claim rather than one claim per wake.
   */
  gatherMs?: number;
}): Pump {
  const inFlight = new Set<Promise<void>>();
  const waiter = createWaiter();
  let running = false;
  let loop: Promise<void> | undefined;

  const gather = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  function launch(item: T): Promise<void> {
    const p: Promise<void> = deps
      .process(item)
      .catch((err: unknown) => {
        deps.logger.error({ err }, `${deps.name}: item processing threw`);
      })
      .finally(() => {
        inFlight.delete(p);
        waiter.wake();
      });
    inFlight.add(p);
    return p;
  }

  /** Claim for the free slots: what was claimed, and whether it filled every slot asked for. */
  async function claimFree(): Promise<{ items: T[]; full: boolean }> {
    const none = { items: [], full: false };
    if (inFlight.size >= deps.concurrency) return none;
    await deps.gate?.clear();
    const free = deps.concurrency - inFlight.size;
    try {
      const items = await deps.claim(free);
      return { items, full: items.length >= free };
    } catch (err) {
      deps.logger.error({ err }, `${deps.name}: claim failed`);
      return none;
    }
  }

  async function run(): Promise<void> {
    while (running) {
      const { items, full } = await claimFree();
      for (const item of items) launch(item);
      if (!running) break;
      // Claimed every slot asked for and still have room? Look again at once. Otherwise
      // there is nothing more to take now: sleep until woken (new work, a finished item, a
      // wake that came during the claim) or the poll. Looking again at once after a partial
      // claim only found nothing, a statement for every item.
      if (!full || inFlight.size >= deps.concurrency) {
        await waiter.wait(deps.pollMs);
        if (deps.gatherMs && running) await gather(deps.gatherMs);
      }
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      waiter.wake();
      await loop;
      if (inFlight.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), deps.drainMs);
      });
      const outcome = await Promise.race([Promise.allSettled([...inFlight]), timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        deps.logger.warn({ inFlight: inFlight.size }, `${deps.name}: drain timed out`);
      }
    },
    wake() {
      waiter.wake();
    },
    async runOnce() {
      const { items } = await claimFree();
      await Promise.all(items.map((item) => launch(item)));
      return items.length;
    },
  };
}
