/**
 * The inbox worker: claims due triggers (one per thread at a time, as a lease that survives
 * a crash) and hands each to the trigger handler, several threads concurrently. While a
 * trigger is being handled its lease is renewed (every third of it), so a handler that waits
 * longer than the lease on a slow service is not taken for a crashed one.
 */
import type { Clock, InboxItem, Logger, Store } from '../../core/ports/index.js';
import type { Deferral } from './deferral.js';
import type { ClaimGate } from './ingress-gate.js';
import { createPump, type Pump } from './pump.js';

export type InboxWorker = Pump;

export interface InboxWorkerDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  handle(item: InboxItem): Promise<void>;
  /** Ingress first: claims wait for a burst of requests to end (ingress-gate.ts). */
  gate?: ClaimGate;
  /** Deferred triggers are taken back, ahead of new ones, as the service lane makes room. */
  deferral?: Deferral;
  options: { leaseMs: number; concurrency: number; pollMs: number; drainMs: number };
}

/** Renew a claim this often: a third of the lease, so two renewals may fail before it ends. */
export function renewEveryMs(leaseMs: number): number {
  return Math.max(100, Math.floor(leaseMs / 3));
}

export function createInboxWorker(deps: InboxWorkerDeps): InboxWorker {
  const { store, clock, options } = deps;
  const logger = deps.logger.child({ component: 'inbox' });

  async function handleRenewing(item: InboxItem): Promise<void> {
    const timer = setInterval(() => {
      const now = clock.now();
      store.inboxQueue.renew(item.id, now + options.leaseMs, now).catch((err: unknown) => {
        logger.warn({ err, inboxId: item.id }, 'could not renew the claim of a trigger in hand');
      });
    }, renewEveryMs(options.leaseMs));
    timer.unref();
    try {
      await deps.handle(item);
    } finally {
      clearInterval(timer);
    }
  }

  return createPump({
    name: 'inbox',
    logger,
    concurrency: options.concurrency,
    pollMs: options.pollMs,
    drainMs: options.drainMs,
    // The depth gauge is read at scrape time (main.ts); counting every open row after each
    // claim would cost the busy loop as much as the claim itself at a backlog of thousands.
    claim: async (limit) => {
      const now = clock.now();
      const room = Math.min(limit, deps.deferral?.room(now) ?? 0);
      const resumed =
        room > 0 ? await store.inboxQueue.claimDeferred(now, options.leaseMs, room) : [];
      if (room > 0) deps.deferral?.taken(room, resumed.length, now);
      const fresh = await store.inboxQueue.claim(now, options.leaseMs, limit - resumed.length);
      return resumed.length === 0 ? fresh : [...resumed, ...fresh];
    },
    process: (item) => handleRenewing(item),
    ...(deps.gate ? { gate: deps.gate } : {}),
  });
}
