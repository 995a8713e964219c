/**
 * The queues' health as gauges, read from the store at scrape time: parked notifications,
 * failed triggers, and how long the oldest waiting item of each queue has waited. One read
 * serves the four gauges of a scrape.
 */
import type { Clock, Store } from '../core/ports/index.js';
import type { QueueHealth } from '../core/ports/index.js';
import type { RuntimeMetrics } from './metrics.js';

const SHARED_MS = 500;

export function queueGauges(store: Store, clock: Clock, metrics: RuntimeMetrics): void {
  const operator = store.operator;
  if (!operator) return;
  let last: { at: number; health: Promise<QueueHealth> } | undefined;
  const health = () => {
    const now = clock.now();
    if (!last || now - last.at > SHARED_MS) last = { at: now, health: operator.queueHealth() };
    const current = last;
    current.health.catch(() => {
      if (last === current) last = undefined;
    });
    return current.health;
  };
  const ageSeconds = (at: number | undefined) =>
    at === undefined ? 0 : Math.max(0, (clock.now() - at) / 1000);
  metrics.gaugeSource('outbox_parked', async () => (await health()).outbox.parked);
  metrics.gaugeSource('inbox_failed', async () => (await health()).inbox.failed);
  metrics.gaugeSource('outbox_oldest_waiting_seconds', async () =>
    ageSeconds((await health()).outbox.oldestWaitingAt),
  );
  metrics.gaugeSource('inbox_oldest_waiting_seconds', async () =>
    ageSeconds((await health()).inbox.oldestWaitingAt),
  );
}
