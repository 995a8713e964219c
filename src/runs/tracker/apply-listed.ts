/**
 * Batch mode: apply the listed items of tracked runs that changed. A list item is a full
 * RunItem and is written as it is; only an ended or BLOCKED state listed as a summary (a
 * service whose list items lack the detail fields) has its detail fetched first, so the
 * final message is complete. A failed fetch holds the item back for the next listing, up to
 * a bound, after which the summary is used rather than stalling the listings.
 */
import type { RunItem } from '../../core/run.js';
import type { AgentService, Logger, RunRecord, Store } from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import { stateView } from '../../core/message/state-view.js';
import { epochOf, hasChanged, looksLikeSummary } from '../run-changes.js';
import { forEachLimit } from '../workers/for-each-limit.js';
import type { Listing } from './listing.js';
import { RateLimited } from './observe.js';
import type { CycleStats, RunObserver } from './types.js';
import { createDescendantWatch } from './blocked-descendants.js';

export function rethrowRateLimit(err: unknown): void {
  if (isServiceError(err) && err.code === 'rate_limit') throw new RateLimited(err.retryAfterMs);
}

/**
 * Apply what a listing shows to the tracked runs among its items (their records are read
 * here, only those); returns the earliest `updated_at` held back, if any.
 */
export type ApplyListing = (listing: Listing, stats: CycleStats) => Promise<number | undefined>;

export function createListingApplier(deps: {
  store: Store;
  agent: AgentService;
  log: Logger;
  observer: RunObserver;
  options: { concurrency: number; summaryDetailAttempts: number };
  /** The relay's clock; with it, BLOCKED descendants of tracked runs are told in their thread. */
  now?: () => number;
}): ApplyListing {
  const { store, agent, log, observer, options } = deps;
  const watchDescendants = deps.now
    ? createDescendantWatch({ store, log, now: deps.now })
    : undefined;
  const summaryFailures = new Map<string, number>();

  /** False when the item should be listed again (its detail could not be fetched). */
  async function applyListed(runId: string, item: RunItem, stats: CycleStats): Promise<boolean> {
    const state = stateView(item.state);
    if (!(state.ended || state.blocked) || !looksLikeSummary(item)) {
      await observer.apply(runId, item, stats);
      return true;
    }
    try {
      stats.detailRequests += 1;
      const detail = await agent.getRun(runId);
      summaryFailures.delete(runId);
      await observer.apply(runId, detail, stats);
      return true;
    } catch (err) {
      rethrowRateLimit(err);
      const failures = (summaryFailures.get(runId) ?? 0) + 1;
      if (failures < options.summaryDetailAttempts) {
        summaryFailures.set(runId, failures);
        log.warn({ err, runId }, 'could not fetch run detail; will list it again');
        return false;
      }
      summaryFailures.delete(runId);
      log.warn({ err, runId }, 'could not fetch run detail; using the list item');
      await observer.apply(runId, item, stats);
      return true;
    }
  }

  /** The tracked runs among these ids, by id. */
  async function trackedAmong(runIds: readonly string[]): Promise<Map<string, RunRecord>> {
    const unique = [...new Set(runIds)];
    const runs = unique.length === 0 ? [] : await store.runs.getMany(unique);
    return new Map(runs.filter((r) => r.tracked).map((r) => [r.runId, r]));
  }

  return async (listing, stats) => {
    const tracked = await trackedAmong(listing.items.map((item) => item.run_id));
    // Ascending order: a run listed twice (it changed while the listing paged) keeps its last.
    const latest = new Map<string, RunItem>();
    for (const item of listing.items) {
      const run = tracked.get(item.run_id);
      if (run && hasChanged(run, item)) latest.set(item.run_id, item);
    }
    let heldFrom: number | undefined;
    await forEachLimit([...latest.values()], options.concurrency, async (item) => {
      if (await applyListed(item.run_id, item, stats)) return;
      const at = epochOf(item.updated_at);
      if (at !== undefined) heldFrom = Math.min(heldFrom ?? at, at);
    });
    await watchDescendants?.(listing.items, stats);
    return heldFrom;
  };
}
