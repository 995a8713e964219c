/**
 * The ingress side of the inbox: what the Slack and GitHub ingress hand their triggers to.
 * A trigger is written to the inbox (a repeated delivery id is a duplicate) and only then is
 * the platform's request acknowledged; the inbox worker is woken for it.
 *
 * Each platform waits only so long for an answer, so the writes run under a deadline when the
 * store supports one: Slack gives up after 3 s and delivers again by itself (2 s here, then a
 * 500); GitHub gives up after 10 s and does not redeliver by itself (8 s here, then a 503);
 * Linear wants an answer within 5 s and retries a failed delivery (4 s here, then a 503);
 * Jira retries a failed or slow delivery a few times (8 s here, then a 503).
 */
import type { Clock, Metrics, Store, TriggerSink } from '../core/ports/index.js';
import { noopMetrics } from '../core/ports/index.js';
import { platformOf } from '../core/thread-key.js';
import type { Platform } from '../core/trigger.js';

export const DEFAULT_INGRESS_DEADLINE_MS: Readonly<Record<Platform, number>> = {
  slack: 2_000,
  github: 8_000,
  linear: 4_000,
  jira: 8_000,
  // The Bot Connector waits about 15 s for an answer (an invoke's card must come in it).
  teams: 4_000,
};

export interface InboxSinkDeps {
  store: Pick<Store, 'inbox' | 'threads' | 'withDeadline'>;
  clock: Clock;
  metrics?: Metrics;
  /** Called after a new trigger was written (wake the inbox worker). */
  onAccepted?: () => void;
  deadlineMs?: Readonly<Record<Platform, number>>;
}

export function createInboxSink(deps: InboxSinkDeps): TriggerSink {
  const { store, clock } = deps;
  const metrics = deps.metrics ?? noopMetrics;
  const deadlineMs = deps.deadlineMs ?? DEFAULT_INGRESS_DEADLINE_MS;
  const inTime = <T>(platform: Platform, fn: () => Promise<T>): Promise<T> =>
    store.withDeadline(deadlineMs[platform], fn);

  return {
    async accept(trigger) {
      const now = clock.now();
      const added = await inTime(trigger.platform, () => store.inbox.add(trigger, now));
      metrics.inc(added ? 'triggers_received' : 'duplicates_dropped', {
        platform: trigger.platform,
        kind: trigger.kind,
      });
      if (added) deps.onAccepted?.();
      return added ? 'accepted' : 'duplicate';
    },
    async threadHasRun(threadKey) {
      return inTime(platformOf(threadKey) ?? 'slack', async () => {
        const resolved = await store.threads.resolve(threadKey);
        const thread = await store.threads.get(resolved);
        return thread?.currentRunId !== undefined;
      });
    },
  };
}
