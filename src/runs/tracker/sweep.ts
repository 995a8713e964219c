/**
 * Batch mode's periodic sweep: every live and BLOCKED run, listed in full (no time filter).
 * A tracked run whose record says live or BLOCKED but that is missing from a complete sweep
 * changed without a listing showing it (a change committed behind the high-water mark): its
 * detail is fetched once.
 */
import type { AgentService, Logger, Store } from '../../core/ports/index.js';
import { KNOWN_STATE_NAMES, stateView } from '../../core/message/state-view.js';
import { forEachLimit } from '../workers/for-each-limit.js';
import { rethrowRateLimit, type ApplyListing } from './apply-listed.js';
import { listPaged } from './listing.js';
import type { CycleStats, RunObserver } from './types.js';

/** The states the sweep lists: everything a tracked run waits in. */
export const WAITING_STATE_NAMES: readonly string[] = KNOWN_STATE_NAMES.filter((s) => {
  const view = stateView(s);
  return view.live || view.blocked;
});

export async function sweepWaitingRuns(
  deps: {
    store: Store;
    agent: AgentService;
    log: Logger;
    observer: RunObserver;
    applyListing: ApplyListing;
    options: { pageLimit: number; maxPages: number; concurrency: number };
  },
  stats: CycleStats,
): Promise<void> {
  const { store, agent, log, options } = deps;
  stats.swept = true;
  const tracked = await store.runs.listTrackedBrief();
  const listing = await listPaged({
    agent,
    maxPages: options.maxPages,
    // created_at never changes, so no run slips between pages while the sweep pages on.
    query: {
      state: WAITING_STATE_NAMES,
      sort_by: 'created_at',
      sort_order: 'asc',
      limit: options.pageLimit,
    },
  });
  stats.listRequests += listing.requests;
  await deps.applyListing(listing, stats);
  if (listing.error !== undefined) {
    rethrowRateLimit(listing.error);
    stats.listFailed = true;
    log.warn({ err: listing.error }, 'sweep of live runs failed');
    return;
  }
  if (!listing.complete) {
    log.warn({ pages: listing.requests }, 'sweep cut short by the page bound; skipped');
    return;
  }
  const listed = new Set(listing.items.map((item) => item.run_id));
  const missedIds = tracked
    .filter((run) => {
      const state = stateView(run.state);
      return (state.live || state.blocked) && !listed.has(run.runId);
    })
    .map((run) => run.runId);
  const missed = missedIds.length === 0 ? [] : await store.runs.getMany(missedIds);
  if (missed.length > 0) log.info({ runs: missed.length }, 'sweep found runs changed unseen');
  await forEachLimit(missed, options.concurrency, (run) => deps.observer.fetchAndApply(run, stats));
}
