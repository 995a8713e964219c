/**
 * The tracker's own types: what it is built from (`TrackerDeps`), what one cycle reports
 * (`CycleStats`), and the one-run observer the batch and per-run cycles share.
 */
import type { BudgetWords } from '../runs-deps.js';
import type { ProgressOptions } from './progress-poller.js';
import type { RunItem } from '../../core/run.js';
import type { Platform } from '../../core/trigger.js';
import type { PlatformCapabilities } from '../../core/ports/index.js';
import type { ClaimGate } from '../workers/ingress-gate.js';
import type {
  AgentService,
  Clock,
  Logger,
  Metrics,
  Random,
  RunRecord,
  Store,
} from '../../core/ports/index.js';

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
  /**
   * How the budget command is written in the notice the tracker queues when a recorded cost
   * takes a place to 80 % of its budget; absent: the tracker queues no such notice.
   */
  /** What each platform can do (a cap's question goes privately where it can). */
  capabilities?: Partial<Record<Platform, PlatformCapabilities>>;
  budgetWords?: BudgetWords;
  /**
   * Several replicas on one database: the cycle runs only while this replica holds the store
   * lease named `name` (`ttlMs` long, renewed every cycle and every third of `ttlMs` while the
   * tracker runs), so one tracker works at a time and another takes over within `ttlMs` of
   * its holder's death. Without it every cycle runs.
   */
  lease?: { name: string; holder: string; ttlMs: number };
  /** Ingress first: each cycle of the loop waits for a burst of requests to end (ingress-gate.ts). */
  gate?: ClaimGate;
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
    /** Progress of running runs on their status messages (progress-poller.ts); absent: off. */
    progress?: ProgressOptions;
    /**
     * How long a working run's agent session may stay quiet before the session keeper queues a
     * keep-alive (platforms with `sessionKeepAlive`, session-keeper.ts); absent: no keep-alives.
     */
    keepAliveMs?: number;
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
  /** Record writes that lost a compare-and-set to another writer and were decided again. */
  conflicts: number;
  /** Another replica holds the tracking lease: this one did nothing this cycle. */
  standby: boolean;
  durationMs: number;
}

/** A cycle's counters before it has done anything. */
export function emptyCycleStats(mode: TrackerMode): CycleStats {
  return {
    mode,
    paused: false,
    tracked: 0,
    listRequests: 0,
    detailRequests: 0,
    changed: 0,
    notifications: 0,
    swept: false,
    listFailed: false,
    conflicts: 0,
    standby: false,
    durationMs: 0,
  };
}

export interface RunObserver {
  /** Write what `item` (the service's view of the run) calls for, in one transaction. */
  apply(runId: string, item: RunItem, stats: CycleStats): Promise<void>;
  /** Fetch the run's detail and apply it; a failed fetch reschedules the run (per-run mode). */
  fetchAndApply(run: RunRecord, stats: CycleStats): Promise<void>;
}
