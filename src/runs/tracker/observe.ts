/**
 * One run, one look: write what changed (state, check interval) and the notifications it
 * calls for in ONE transaction, from a list item (batch) or a fetched detail (both modes).
 */
import type { RunItem } from '../../agent/schemas.js';
import type {
  AgentService,
  Clock,
  Logger,
  Metrics,
  Random,
  RunRecord,
  Store,
} from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import { RelayError } from '../../core/relay-error.js';
import { observeRun, type TrackingIntervals } from './detect-changes.js';
import type { IngressPriorityGate } from '../workers/ingress-priority.js';

export type TrackerMode = 'batch' | 'per-run';

export interface TrackerDeps {
  store: Store;
  agent: AgentService;
  clock: Clock;
  random: Random;
  logger: Logger;
  metrics: Metrics;
  /** Called after notifications were queued. */
  notifyOutbox?: () => void;
  /** Ingress first (ingress-priority.ts): a cycle waits for a burst of requests to ease. */
  priority?: IngressPriorityGate;
  options: {
    mode: TrackerMode;
    pollIntervalMs: number;
    maxCheckIntervalMs: number;
    blockedCheckIntervalMs: number;
    /**
     * Batch: margin subtracted from the high-water mark in `updated_after` (the filter is
     * exclusive, and a service may commit out of order). Default 2 s.
     */
    safetyMarginMs?: number;
    /** Batch: items per listing page (1-500). Default 500. */
    listPageLimit?: number;
    /** Batch: pages per listing; a cut listing continues next cycle. Default 10. */
    maxListPages?: number;
    /** Batch: a full sweep of live and BLOCKED runs every this many cycles. Default 150. */
    sweepEveryCycles?: number;
    /**
     * Batch: how far before its record's last write a run that became tracked while the
     * tracker runs (a new run, a follow-up on an ended run) is looked for. Default 60 s.
     */
    newlyTrackedLookBackMs?: number;
    /**
     * Batch: cycles a failing detail fetch of a summary list item (ended or BLOCKED) is tried
     * before the list item is used as it is. Default 3.
     */
    summaryDetailAttempts?: number;
    /** Detail fetches (and item writes) in flight at once. Default 8. */
    concurrency?: number;
    /** Due runs per cycle in per-run mode. Default 500. */
    perRunLimit?: number;
  };
}

export interface CycleStats {
  mode: TrackerMode;
  /** Set when the cycle did nothing because the service asked us to slow down. */
  paused: boolean;
  tracked: number;
  listRequests: number;
  detailRequests: number;
  changed: number;
  notifications: number;
  /** Batch: the cycle included the periodic sweep of live and BLOCKED runs. */
  swept: boolean;
  /** Batch: a listing failed (the next cycle lists again from the same point). */
  listFailed: boolean;
  durationMs: number;
}

export class RateLimited extends RelayError<'rate_limited'> {
  override readonly name = 'RateLimited';
  constructor(readonly retryAfterMs: number | undefined) {
    super('rate_limited', 'the service asked the tracker to slow down');
  }
}

export interface RunObserver {
  /** Write what `item` (the service's view of the run) calls for, in one transaction. */
  apply(runId: string, item: RunItem, stats: CycleStats): Promise<void>;
  /** Fetch the run's detail and apply it; a failed fetch reschedules the run (per-run mode). */
  fetchAndApply(run: RunRecord, stats: CycleStats): Promise<void>;
}

export function createRunObserver(deps: {
  store: Store;
  agent: AgentService;
  clock: Clock;
  log: Logger;
  intervals: TrackingIntervals;
  /** Called before each fetch (the tracker forgets a nudge once the run is looked at). */
  onLook?: (runId: string) => void;
}): RunObserver {
  const { store, agent, clock, log, intervals } = deps;
  async function apply(runId: string, item: RunItem, stats: CycleStats): Promise<void> {
    const now = clock.now();
    const queued = await store.transaction(async (tx) => {
      const record = await tx.runs.get(runId);
      if (!record) return 0;
      const observation = observeRun({ record, item, now, intervals });
      await tx.runs.update(runId, observation.patch);
      for (const payload of observation.notifications) await tx.outbox.enqueue(payload, now);
      if (observation.changed) stats.changed += 1;
      return observation.notifications.length;
    });
    stats.notifications += queued;
  }

  async function fetchAndApply(run: RunRecord, stats: CycleStats): Promise<void> {
    deps.onLook?.(run.runId);
    let item: RunItem;
    try {
      stats.detailRequests += 1;
      item = await agent.getRun(run.runId);
    } catch (err) {
      if (isServiceError(err) && err.code === 'rate_limit') throw new RateLimited(err.retryAfterMs);
      if (isServiceError(err) && err.code === 'not_found') {
        log.warn({ runId: run.runId }, 'tracked run is unknown to the service; no longer tracked');
        await store.runs.update(run.runId, { tracked: false, updatedAt: clock.now() });
        return;
      }
      const interval = Math.min(
        intervals.maxMs,
        Math.max(intervals.baseMs, run.checkIntervalMs) * 2,
      );
      log.warn({ err, runId: run.runId }, 'could not fetch run detail; will look again');
      await store.runs.update(run.runId, {
        nextCheckAt: clock.now() + interval,
        checkIntervalMs: interval,
      });
      return;
    }
    await apply(run.runId, item, stats);
  }

  return { apply, fetchAndApply };
}
