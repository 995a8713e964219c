/**
 * The tracker: finds state changes of every tracked run and writes the new state and its
 * notifications in one transaction (so a crash neither loses nor repeats one). Batch mode
 * (tracker-batch.ts) lists what changed since a high-water mark once per cycle for all runs;
 * per-run mode fetches every due run's detail with a per-run backoff (the baseline, and the
 * fallback for a service without `updated_after`). A 429 slows the whole tracker down. Beside
 * the cycle, on the same lease: the progress poller and the session keeper (keep-alives).
 */
import { countUsage, refreshBudgetGauge } from './count-usage.js';
import { noticeBudgetReached } from './budget-crossing.js';
import { reachesCap, stopAtCap } from './cap-reached.js';
import type { RunRecord } from '../../core/ports/index.js';
import { backoffDelay, createWaiter } from '../workers/backoff.js';
import type { TrackingIntervals } from '../run-changes.js';
import { forEachLimit } from '../workers/for-each-limit.js';
import { createBatchCycle } from './batch-cycle.js';
import { createRunObserver, RateLimited } from './observe.js';
import { createProgressPoller, type ProgressPoller } from './progress-poller.js';
import { createSessionKeeper, type SessionKeeper } from './session-keeper.js';
import { emptyCycleStats } from './types.js';
import type { CycleStats, RunObserver, TrackerDeps } from './types.js';

export type { CycleStats, TrackerDeps, TrackerMode } from './types.js';

export interface Tracker {
  start(): void;
  stop(): Promise<void>;
  runCycle(): Promise<CycleStats>;
  /** Look at this run soon (after a follow-up or cancel): wakes the tracker early. */
  nudge(runId: string): void;
}

export function createTracker(deps: TrackerDeps): Tracker {
  const { store, agent, clock, metrics, options } = deps;
  const log = deps.logger.child({ component: 'tracker' });
  const intervals: TrackingIntervals = {
    baseMs: options.pollIntervalMs,
    maxMs: options.maxCheckIntervalMs,
    blockedMs: options.blockedCheckIntervalMs,
  };
  const nudged = new Set<string>();
  const progress: ProgressPoller | undefined =
    options.progress && options.progress.readsPerMinute > 0
      ? createProgressPoller({
          store,
          agent,
          clock,
          log: log.child({ part: 'progress' }),
          options: options.progress,
          ...(deps.notifyOutbox ? { notifyOutbox: deps.notifyOutbox } : {}),
        })
      : undefined;
  const keeper: SessionKeeper | undefined =
    options.keepAliveMs === undefined
      ? undefined
      : createSessionKeeper({
          store,
          clock,
          log: log.child({ part: 'keep-alive' }),
          keepAliveMs: options.keepAliveMs,
          ...(deps.notifyOutbox ? { notifyOutbox: deps.notifyOutbox } : {}),
        });
  const observer: RunObserver = createRunObserver({
    store,
    agent,
    clock,
    log,
    intervals,
    ...(deps.capabilities ? { capabilities: deps.capabilities } : {}),
    onLook: (runId) => nudged.delete(runId),
    ...(progress ? { progress } : {}),
    onUsage: (record, patch) => {
      if (patch.costUsd === undefined) return;
      countUsage(metrics, record, patch);
      const grew = patch.costUsd > (record.costUsd ?? 0);
      const now = clock.now();
      if (grew && reachesCap({ ...record, ...patch }, patch.costUsd)) {
        void stopAtCap(
          {
            store,
            agent,
            log,
            ...(deps.capabilities ? { capabilities: deps.capabilities } : {}),
            ...(deps.notifyOutbox ? { notifyOutbox: deps.notifyOutbox } : {}),
          },
          record.runId,
          patch.costUsd,
          now,
        ).catch((err: unknown) =>
          log.warn({ err, runId: record.runId }, 'could not stop the run at its cap'),
        );
      }
      void refreshBudgetGauge({ store, metrics, log }, record, now)
        .then((budget) =>
          budget && grew && deps.budgetWords
            ? noticeBudgetReached(
                {
                  store,
                  random: deps.random,
                  log,
                  words: deps.budgetWords,
                  ...(deps.notifyOutbox ? { notifyOutbox: deps.notifyOutbox } : {}),
                },
                record,
                budget,
                now,
              )
            : false,
        )
        .catch((err: unknown) => log.warn({ err }, 'could not queue the budget notice'));
    },
  });
  const concurrency = options.concurrency ?? 8;
  const newBatchCycle = () =>
    createBatchCycle({
      store,
      now: () => clock.now(),
      agent,
      log,
      observer,
      options: {
        marginMs: options.safetyMarginMs ?? 2_000,
        pageLimit: options.listPageLimit ?? 500,
        maxPages: options.maxListPages ?? 10,
        sweepEveryCycles: Math.max(1, options.sweepEveryCycles ?? 150),
        newlyTrackedLookBackMs: options.newlyTrackedLookBackMs ?? 60_000,
        summaryDetailAttempts: Math.max(1, options.summaryDetailAttempts ?? 3),
        concurrency,
      },
    });
  /** Remade whenever the lease comes back after someone else held it: its memory is stale. */
  let batchCycle = newBatchCycle();
  /** The lease epoch this replica last held (undefined: not holding). */
  let heldEpoch: number | undefined;
  const waiter = createWaiter();
  let pausedUntil = 0;
  let rateLimitStreak = 0;
  let running = false;
  let loop: Promise<void> | undefined;
  let progressLoop: Promise<void> | undefined;
  /** The waiters of the loops beside the cycle (progress, keep-alives), woken at stop. */
  const sideWaiters: ReturnType<typeof createWaiter>[] = [];
  let keeperLoop: Promise<void> | undefined;
  let renewLoop: Promise<void> | undefined;
  let cycle: Promise<CycleStats> | undefined;

  /**
   * Take or renew the tracking lease (one statement). Only its holder tracks; the others
   * stand by and take over once it runs out. A lease that comes back after another replica
   * held it starts the batch cycle afresh, as after a restart.
   */
  async function holdLease(now: number): Promise<boolean> {
    const { lease } = deps;
    if (!lease) return true;
    const held = await store.leases.acquire(lease.name, lease.holder, now, lease.ttlMs);
    if (!held) {
      if (heldEpoch !== undefined) log.info({ holder: lease.holder }, 'tracking lease lost');
      heldEpoch = undefined;
      // The holder looks at those runs (a follow-up or cancel moved their record).
      nudged.clear();
      progress?.reset();
      metrics.set('tracker_lease_held', 0);
      return false;
    }
    if (held.epoch !== heldEpoch) {
      batchCycle = newBatchCycle();
      log.info({ holder: lease.holder, epoch: held.epoch }, 'tracking lease taken');
      heldEpoch = held.epoch;
      metrics.set('tracker_lease_held', 1);
    }
    return true;
  }

  async function perRunCycle(stats: CycleStats): Promise<void> {
    stats.tracked = await store.runs.countTracked();
    const due = await store.runs.listDue(clock.now(), options.perRunLimit ?? 500);
    const dueIds = new Set(due.map((r) => r.runId));
    const extra: RunRecord[] = [];
    for (const runId of nudged) {
      if (dueIds.has(runId)) continue;
      const run = await store.runs.get(runId);
      if (run?.tracked) extra.push(run);
    }
    await forEachLimit([...due, ...extra], concurrency, (run) =>
      observer.fetchAndApply(run, stats),
    );
  }

  async function runCycleNow(): Promise<CycleStats> {
    const startedAt = clock.now();
    const stats = emptyCycleStats(options.mode);
    if (!(await holdLease(startedAt))) {
      stats.standby = true;
      return stats;
    }
    if (startedAt < pausedUntil) {
      stats.paused = true;
      return stats;
    }
    const t0 = performance.now();
    try {
      if (options.mode === 'batch') await batchCycle(stats);
      else await perRunCycle(stats);
      rateLimitStreak = 0;
    } catch (err) {
      if (!(err instanceof RateLimited)) throw err;
      const delay = Math.max(
        err.retryAfterMs ?? 0,
        backoffDelay(rateLimitStreak, {
          baseMs: options.pollIntervalMs * 2,
          maxMs: 120_000,
          random: deps.random,
        }),
      );
      rateLimitStreak += 1;
      pausedUntil = clock.now() + delay;
      log.warn({ delayMs: delay }, 'service answered 429: tracker slows down');
    } finally {
      stats.durationMs = performance.now() - t0;
      metrics.observe('tracker_cycle_seconds', stats.durationMs / 1000, { mode: options.mode });
      metrics.set('live_runs_tracked', stats.tracked);
      if (stats.notifications > 0) deps.notifyOutbox?.();
    }
    return stats;
  }

  function runCycle(): Promise<CycleStats> {
    // One cycle at a time: a nudge during a cycle waits for it instead of overlapping.
    const next = (cycle ?? Promise.resolve()).catch(() => undefined).then(runCycleNow);
    cycle = next;
    return next;
  }

  async function run(): Promise<void> {
    while (running) {
      try {
        await deps.gate?.clear();
        if (!running) break;
        await runCycle();
      } catch (err) {
        log.error({ err }, 'tracker cycle failed');
      }
      if (!running) break;
      const untilResume = pausedUntil - clock.now();
      await waiter.wait(Math.max(options.pollIntervalMs, untilResume));
    }
  }

  /**
   * Progress reads and keep-alive sweeps, each in a loop of its own, so they never delay a
   * cycle's state changes: `round` every `everyMs`, only while this replica holds the tracking
   * lease (the cycle keeps it).
   */
  async function whileHeld(
    round: () => Promise<unknown>,
    everyMs: number,
    failed: string,
  ): Promise<void> {
    const waiter = createWaiter();
    sideWaiters.push(waiter);
    while (running) {
      try {
        await deps.gate?.clear();
        if (!running) break;
        if (!deps.lease || heldEpoch !== undefined) await round();
      } catch (err) {
        log.warn({ err }, failed);
      }
      if (!running) break;
      await waiter.wait(everyMs);
    }
  }

  /**
   * The holder renews its lease every third of the lease's length, whatever its cycle is
   * doing: a cycle slowed by a busy machine, or held back at the gate by a burst (up to 30 s,
   * longer than the lease), would otherwise let the lease run out while the replica lives, and
   * the next cycle, here or on another replica, would start afresh with a catch-up listing.
   * So only a replica that stops or dies lets the lease go.
   */
  async function keepLease(ttlMs: number): Promise<void> {
    const waiter = createWaiter();
    sideWaiters.push(waiter);
    while (running) {
      await waiter.wait(Math.max(100, Math.floor(ttlMs / 3)));
      if (!running || heldEpoch === undefined) continue;
      try {
        await holdLease(clock.now());
      } catch (err) {
        log.warn({ err }, 'could not renew the tracking lease');
      }
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
      if (deps.lease) renewLoop = keepLease(deps.lease.ttlMs);
      if (progress && options.progress) {
        const everyMs = Math.max(250, Math.min(5_000, 60_000 / options.progress.readsPerMinute));
        progressLoop = whileHeld(() => progress.tick(), everyMs, 'progress round failed');
      }
      if (keeper && options.keepAliveMs !== undefined) {
        // Several sweeps per quiet period, so a keep-alive comes well before the session is stale.
        const everyMs = Math.max(1_000, Math.min(60_000, options.keepAliveMs / 4));
        keeperLoop = whileHeld(() => keeper.sweep(), everyMs, 'keep-alive sweep failed');
      }
    },
    async stop() {
      running = false;
      waiter.wake();
      for (const side of sideWaiters) side.wake();
      await loop;
      await progressLoop;
      await keeperLoop;
      await renewLoop;
      await cycle?.catch(() => undefined);
      // Hand the lease over now rather than when it runs out.
      if (deps.lease && heldEpoch !== undefined) {
        heldEpoch = undefined;
        await store.leases.release(deps.lease.name, deps.lease.holder).catch((err: unknown) => {
          log.warn({ err }, 'could not release the tracking lease; it runs out by itself');
        });
      }
    },
    runCycle,
    nudge(runId) {
      // Batch: the follow-up or cancel moves the run's updated_at, so the next listing shows
      // it; waking early is enough. Per-run: look at the run in the next cycle.
      if (options.mode === 'per-run') nudged.add(runId);
      progress?.looked(runId);
      waiter.wake();
    },
  };
}
