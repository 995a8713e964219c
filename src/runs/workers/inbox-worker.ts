/**
 * The inbox worker: claims due triggers (one per thread at a time, as a lease that survives
 * a crash) and hands each to the trigger handler, several threads concurrently.
 */
import type { Clock, InboxItem, Logger, Store } from '../../core/ports/index.js';
import { createPump, type Pump } from './pump.js';
import type { IngressPriorityGate } from './ingress-priority.js';

export type InboxWorker = Pump;

export interface InboxWorkerDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  handle(item: InboxItem): Promise<void>;
  /** While positive, claim nothing (the service asked to slow down). */
  holdMs?: () => number;
  priority?: IngressPriorityGate;
  options: { leaseMs: number; concurrency: number; pollMs: number; drainMs: number };
}

export function createInboxWorker(deps: InboxWorkerDeps): InboxWorker {
  const { store, clock, options } = deps;
  const logger = deps.logger.child({ component: 'inbox' });
  return createPump({
    name: 'inbox',
    logger,
    concurrency: options.concurrency,
    pollMs: options.pollMs,
    drainMs: options.drainMs,
    // The depth gauge is read at scrape time (main.ts); counting every open row after each
    // claim would cost the busy loop as much as the claim itself at a backlog of thousands.
    claim: (limit) => store.inboxQueue.claim(clock.now(), options.leaseMs, limit),
    process: (item) => deps.handle(item),
    ...(deps.holdMs ? { holdMs: deps.holdMs } : {}),
    ...(deps.priority ? { priority: deps.priority } : {}),
  });
}
