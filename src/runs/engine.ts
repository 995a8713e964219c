/**
 * The runs engine: the trigger handler, the inbox worker, the tracker and the outbox worker,
 * composed over the ports. The ingress writes triggers to the inbox through
 * service/inbox-sink.ts and wakes the inbox worker (`inbox.wake()`).
 */
import type { InboxItem } from '../core/ports/index.js';
import { noopMetrics } from '../core/ports/index.js';
import { defaultMayCancel } from './use-cases/cancel-run.js';
import { createTriggerHandler } from './use-cases/handle-trigger.js';
import { createInboxWorker, type InboxWorker } from './workers/inbox-worker.js';
import { createIngressGate } from './workers/ingress-gate.js';
import { createOutboxWorker, type OutboxWorker } from './workers/outbox-worker.js';
import { createDeferral } from './workers/deferral.js';
import { createServiceLane } from './workers/service-lane.js';
import { resolveEngineOptions, type EngineOptions, type RunsDeps } from './runs-deps.js';
import { createTracker, type Tracker } from './tracker/tracker.js';

/** What the engine is given (the rest of `RunsDeps` it makes: defaults, its workers' hooks). */
export type EngineDeps = Pick<
  RunsDeps,
  'store' | 'agent' | 'notifiers' | 'capabilities' | 'clock' | 'random' | 'logger'
> &
  Partial<Pick<RunsDeps, 'metrics' | 'sleep' | 'mayCancel' | 'repoAccess' | 'catalogue'>> & {
    options: EngineOptions;
    /** This process among the replicas sharing the store (the tracking lease's holder name). */
    replicaId?: string;
    /**
     * How long a working run's agent session may stay quiet before a keep-alive (platforms
     * with `sessionKeepAlive`; tracker/session-keeper.ts); absent: none.
     */
    keepAliveMs?: number;
  };

export interface Engine {
  handleTrigger(item: InboxItem): Promise<void>;
  inbox: InboxWorker;
  tracker: Tracker;
  outbox: OutboxWorker;
  /** How long the triggers' calls to the service stay paused because it asked (0: not). */
  claimingPausedMs(): number;
  /**
   * A request reached an ingress route (Slack events, GitHub webhooks). During a burst of them
   * the workers claim nothing new, so the acknowledgements get the event loop
   * (workers/ingress-gate.ts). Does nothing when `burstPerSecond` is 0.
   */
  noteArrival(): void;
  start(): void;
  /** Stop taking work and drain what is in flight (bounded). */
  stop(): Promise<void>;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function createEngine(deps: EngineDeps): Engine {
  const options = resolveEngineOptions(deps.options);
  const metrics = deps.metrics ?? noopMetrics;
  const logger = deps.logger.child({ component: 'runs' });
  // The handler needs the workers' wake-ups and the workers need the handler: the closures
  // below refer to workers created further down (they are called only after that).

  // Shared by every trigger in flight: a 429 or `at_capacity` holds back every trigger's calls
  // to the service (not their first signs, queued before the service is asked).
  let pausedUntil = 0;
  const pausedMs = () => pausedUntil - deps.clock.now();
  // Up to twice what the lane lets through at once: each in flight with one waiting behind it.
  const deferral = createDeferral({
    admitted: 2 * options.serviceConcurrency,
    paused: () => pausedMs() > 0,
    lookEveryMs: options.workerPollMs * 4,
  });
  const runsDeps: RunsDeps = {
    store: deps.store,
    agent: createServiceLane(deps.agent, {
      concurrency: options.serviceConcurrency,
      pausedMs,
    }),
    deferral,
    leftService: () => {
      if (deferral.leave()) inbox.wake();
    },
    notifiers: deps.notifiers,
    capabilities: deps.capabilities,
    clock: deps.clock,
    random: deps.random,
    logger,
    metrics,
    sleep: deps.sleep ?? realSleep,
    options,
    mayCancel: deps.mayCancel ?? defaultMayCancel(),
    ...(deps.repoAccess ? { repoAccess: deps.repoAccess } : {}),
    ...(deps.catalogue ? { catalogue: deps.catalogue } : {}),
    notifyOutbox: (platform) => outbox.wake(platform),
    nudgeTracker: (runId) => tracker.nudge(runId),
    slowDown: (ms, reason) => {
      const until = deps.clock.now() + ms;
      metrics.inc('claiming_paused', { reason });
      if (until > pausedUntil) {
        logger.warn({ ms }, 'the service asks to slow down; calls to it paused');
      }
      pausedUntil = Math.max(pausedUntil, until);
    },
  };
  const handleTrigger = createTriggerHandler(runsDeps);
  // The one ingress-first gate: every claim loop (inbox, outbox lanes, tracker) waits on it.
  const gate =
    options.burstPerSecond > 0
      ? createIngressGate({
          burstPerSecond: options.burstPerSecond,
          now: () => deps.clock.now(),
        })
      : undefined;
  const gated = gate ? { gate } : {};

  const inbox = createInboxWorker({
    store: deps.store,
    clock: deps.clock,
    // Each worker names its own component (one `component` key per log line).
    logger: deps.logger,
    handle: handleTrigger,
    deferral,
    ...gated,
    options: {
      leaseMs: options.leaseMs,
      concurrency: options.inboxConcurrency,
      pollMs: options.workerPollMs,
      drainMs: options.drainMs,
    },
  });
  const outbox = createOutboxWorker({
    store: deps.store,
    notifiers: deps.notifiers,
    capabilities: deps.capabilities,
    clock: deps.clock,
    random: deps.random,
    // Each worker names its own component (one `component` key per log line).
    logger: deps.logger,
    metrics,
    ...gated,
    options: {
      leaseMs: options.leaseMs,
      pollMs: options.workerPollMs,
      maxAttempts: options.outboxMaxAttempts,
      drainMs: options.drainMs,
    },
  });
  const tracker = createTracker({
    store: deps.store,
    agent: deps.agent,
    clock: deps.clock,
    random: deps.random,
    // Each worker names its own component (one `component` key per log line).
    logger: deps.logger,
    metrics,
    notifyOutbox: () => outbox.wake(),
    budgetWords: {
      botHandle: options.botHandle,
      commandWord: options.commandWord,
      botHandles: options.botHandles,
    },
    capabilities: deps.capabilities,
    lease: {
      name: 'tracker',
      holder: deps.replicaId ?? `replica-${deps.random.id()}`,
      ttlMs: options.trackerLeaseMs,
    },
    ...gated,
    options: {
      mode: options.trackerMode,
      pollIntervalMs: options.pollIntervalMs,
      maxCheckIntervalMs: options.maxCheckIntervalMs,
      blockedCheckIntervalMs: options.blockedCheckIntervalMs,
      progress: {
        readsPerMinute: options.progressReadsPerMinute,
        intervalMs: options.progressIntervalMs,
      },
      ...(deps.keepAliveMs === undefined ? {} : { keepAliveMs: deps.keepAliveMs }),
    },
  });

  return {
    handleTrigger,
    inbox,
    tracker,
    outbox,
    claimingPausedMs: () => Math.max(0, pausedUntil - deps.clock.now()),
    noteArrival() {
      gate?.arrived();
    },
    start() {
      inbox.start();
      tracker.start();
      outbox.start();
    },
    async stop() {
      // Inbox first (its items queue notifications), then the tracker, then the outbox.
      await inbox.stop();
      await tracker.stop();
      await outbox.stop();
    },
  };
}
