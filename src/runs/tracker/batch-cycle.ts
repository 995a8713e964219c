/**
 * Batch mode (docs/architecture.md, "Tracking cost"). Each cycle lists every run the service changed
 * since a high-water mark (`hwm`, the greatest `updated_at` seen, minus a small margin),
 * oldest change first, and applies the list items of tracked runs directly (a list item is a
 * full RunItem). A tracked run absent from such a listing did not change, so no run is polled
 * on its own; a periodic sweep (tracker-sweep.ts) catches what a listing could not show.
 */
import type { AgentService, Logger, RunRecord, Store } from '../../core/ports/index.js';
import { epochOf } from '../run-changes.js';
import { createListingApplier, rethrowRateLimit } from './apply-listed.js';
import { latestUpdate, listPaged } from './listing.js';
import type { CycleStats, RunObserver } from './types.js';
import { sweepWaitingRuns } from './sweep.js';

export interface BatchOptions {
  marginMs: number;
  pageLimit: number;
  maxPages: number;
  sweepEveryCycles: number;
  newlyTrackedLookBackMs: number;
  summaryDetailAttempts: number;
  concurrency: number;
}

export interface BatchDeps {
  store: Store;
  /** The relay's clock (record writes carry its time). */
  now: () => number;
  agent: AgentService;
  log: Logger;
  observer: RunObserver;
  options: BatchOptions;
}

/** Where the service's record of a run was last seen to change (epoch ms). */
function lastSeen(run: Pick<RunRecord, 'serviceUpdatedAt' | 'createdAt'>): number {
  return epochOf(run.serviceUpdatedAt) ?? run.createdAt;
}

/** How far back each cycle re-reads record writes (transactions commit a little late). */
const SCAN_OVERLAP_MS = 2_000;

export function createBatchCycle(deps: BatchDeps): (stats: CycleStats) => Promise<void> {
  const { store, agent, log, options } = deps;
  const applyListing = createListingApplier(deps);
  /** Every change up to `hwm` of every `covered` run has been listed. */
  let hwm: number | undefined;
  /**
   * The runs tracked at the last listing; undefined before the first one (a restart). Kept
   * up to date from the records written since the last cycle, so that a cycle reads only
   * those and the runs a listing shows, never every tracked run: its cost follows the
   * changes, not the number of threads.
   */
  let covered: Set<string> | undefined;
  /** Tracked since the last listing: where its listing must reach back to, per run. */
  const newcomers = new Map<string, number>();
  /** The relay-clock time of the last read of record writes. */
  let scannedAt: number | undefined;
  let cycles = 0;

  /** Tracked since the last listing (a new run, a follow-up on an ended run): what matters
   * follows its record's last write, however long ago the run was last seen. */
  function sinceForNewcomer(run: RunRecord): number {
    return Math.max(lastSeen(run), run.updatedAt - options.newlyTrackedLookBackMs);
  }

  /** Bring `covered` and `newcomers` up to date with the store. */
  async function scan(now: number): Promise<void> {
    if (covered === undefined || scannedAt === undefined) {
      // First cycle: catch up on everything since each run was last seen.
      const brief = await store.runs.listTrackedBrief();
      newcomers.clear();
      for (const run of brief) newcomers.set(run.runId, lastSeen(run));
      scannedAt = now;
      return;
    }
    const written = await store.runs.listWrittenSince(scannedAt - SCAN_OVERLAP_MS);
    scannedAt = now;
    for (const run of written) {
      if (!run.tracked) {
        covered.delete(run.runId);
        newcomers.delete(run.runId);
      } else if (!covered.has(run.runId)) {
        newcomers.set(
          run.runId,
          Math.min(newcomers.get(run.runId) ?? Infinity, sinceForNewcomer(run)),
        );
      }
    }
  }

  /** The oldest point this cycle's listing must reach back to (before the margin). */
  function listFrom(): number {
    let from = covered !== undefined && covered.size > 0 && hwm !== undefined ? hwm : Infinity;
    for (const since of newcomers.values()) from = Math.min(from, since);
    return from;
  }

  async function listChanged(stats: CycleStats): Promise<void> {
    const from = listFrom();
    const listing = await listPaged({
      agent,
      maxPages: options.maxPages,
      query: {
        updated_after: new Date(from - options.marginMs).toISOString(),
        sort_by: 'updated_at',
        sort_order: 'asc',
        limit: options.pageLimit,
      },
    });
    stats.listRequests += listing.requests;
    const heldFrom = await applyListing(listing, stats);
    const seen = latestUpdate(listing.items);
    if (listing.complete || seen !== undefined) {
      // Complete: every change up to now was listed. Cut short: ascending order means every
      // change up to the last one listed was, and the next cycle continues from there.
      let next = listing.complete ? Math.max(hwm ?? from, from, seen ?? from) : (seen as number);
      if (heldFrom !== undefined) next = Math.min(next, heldFrom);
      hwm = next;
      covered ??= new Set();
      for (const runId of newcomers.keys()) covered.add(runId);
      newcomers.clear();
    }
    if (listing.error !== undefined) {
      rethrowRateLimit(listing.error);
      stats.listFailed = true;
      log.warn({ err: listing.error }, 'listing changed runs failed; the next cycle lists again');
    } else if (!listing.complete) {
      log.warn({ pages: listing.requests }, 'listing cut short by the page bound; continuing');
    }
  }

  return async function batchCycle(stats) {
    await scan(deps.now());
    stats.tracked = (covered?.size ?? 0) + newcomers.size;
    if (stats.tracked === 0) {
      covered ??= new Set();
      return;
    }
    await listChanged(stats);
    cycles += 1;
    if (cycles % options.sweepEveryCycles === 0) {
      await sweepWaitingRuns({ ...deps, applyListing }, stats);
    }
  };
}
