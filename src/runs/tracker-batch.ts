/**
 * Batch mode (DESIGN.md, "Tracking cost"). Each cycle lists every run the service changed
 * since a high-water mark (`hwm`, the greatest `updated_at` seen, minus a small margin),
 * oldest change first, and applies the list items of tracked runs directly (a list item is a
 * full RunItem). A tracked run absent from such a listing did not change, so no run is polled
 * on its own; a periodic sweep (tracker-sweep.ts) catches what a listing could not show.
 */
import type { AgentService, Logger, RunRecord, Store } from '../core/ports.js';
import { epochOf } from './detect-changes.js';
import { createListingApplier, rethrowRateLimit } from './tracker-apply-listed.js';
import { latestUpdate, listPaged } from './tracker-listing.js';
import type { CycleStats, RunObserver } from './tracker-observe.js';
import { sweepWaitingRuns } from './tracker-sweep.js';

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
  agent: AgentService;
  log: Logger;
  observer: RunObserver;
  options: BatchOptions;
}

/** Where the service's record of a run was last seen to change (epoch ms). */
function lastSeen(run: RunRecord): number {
  return epochOf(run.serviceUpdatedAt) ?? run.createdAt;
}

export function createBatchCycle(deps: BatchDeps): (stats: CycleStats) => Promise<void> {
  const { store, agent, log, options } = deps;
  const applyListing = createListingApplier(deps);
  /** Every change up to `hwm` of every `covered` run has been listed. */
  let hwm: number | undefined;
  /** The runs tracked at the last listing; undefined before the first one (a restart). */
  let covered: Set<string> | undefined;
  let cycles = 0;

  /** The oldest point this cycle's listing must reach back to (before the margin). */
  function listFrom(tracked: readonly RunRecord[]): number {
    let from = Number.POSITIVE_INFINITY;
    for (const run of tracked) {
      if (covered === undefined) {
        // First listing: catch up on everything since the run was last seen.
        from = Math.min(from, lastSeen(run));
      } else if (covered.has(run.runId) && hwm !== undefined) {
        from = Math.min(from, hwm);
      } else {
        // Tracked since the last listing (a new run, a follow-up on an ended run): what
        // matters follows its record's last write, however long ago the run was last seen.
        const since = Math.max(lastSeen(run), run.updatedAt - options.newlyTrackedLookBackMs);
        from = Math.min(from, since);
      }
    }
    return from;
  }

  async function listChanged(tracked: readonly RunRecord[], stats: CycleStats): Promise<void> {
    const from = listFrom(tracked);
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
    const byId = new Map(tracked.map((r) => [r.runId, r]));
    const heldFrom = await applyListing(listing, byId, stats);
    const seen = latestUpdate(listing.items);
    if (listing.complete || seen !== undefined) {
      // Complete: every change up to now was listed. Cut short: ascending order means every
      // change up to the last one listed was, and the next cycle continues from there.
      let next = listing.complete ? Math.max(hwm ?? from, from, seen ?? from) : (seen as number);
      if (heldFrom !== undefined) next = Math.min(next, heldFrom);
      hwm = next;
      covered = new Set(byId.keys());
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
    const tracked = await store.runs.listTracked();
    stats.tracked = tracked.length;
    if (tracked.length === 0) {
      covered = new Set();
      return;
    }
    await listChanged(tracked, stats);
    cycles += 1;
    if (cycles % options.sweepEveryCycles === 0) {
      await sweepWaitingRuns({ ...deps, applyListing }, stats);
    }
  };
}
