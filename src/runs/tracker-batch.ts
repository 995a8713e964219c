/**
 * Batch mode (DESIGN.md, "Tracking cost"): one listing of live runs updated since the oldest
 * tracked run's last observation (minus a safety margin), paged, for all tracked runs at
 * once. Only runs that changed, or that left the live list (ended or BLOCKED), need their
 * detail fetched.
 */
import type { RunItem } from '../agent/schemas.js';
import type { AgentService, RunRecord } from '../core/ports.js';
import { KNOWN_STATE_NAMES, stateView } from '../core/state-view.js';
import { hasChanged } from './detect-changes.js';

export const LIVE_STATE_NAMES: readonly string[] = KNOWN_STATE_NAMES.filter(
  (s) => stateView(s).live,
);

export interface LiveListing {
  byId: Map<string, RunItem>;
  /** False when the page bound cut the listing short: absence then proves nothing. */
  complete: boolean;
  requests: number;
}

/** The oldest observation among tracked runs (epoch ms). */
export function watermarkOf(tracked: readonly RunRecord[]): number {
  let oldest = Number.POSITIVE_INFINITY;
  for (const run of tracked) {
    const seen = run.serviceUpdatedAt ? Date.parse(run.serviceUpdatedAt) : Number.NaN;
    oldest = Math.min(oldest, Number.isNaN(seen) ? run.createdAt : seen);
  }
  return oldest;
}

export async function listLiveRuns(input: {
  agent: AgentService;
  tracked: readonly RunRecord[];
  safetyMarginMs: number;
  pageLimit: number;
  maxPages: number;
}): Promise<LiveListing> {
  const updatedAfter = new Date(watermarkOf(input.tracked) - input.safetyMarginMs).toISOString();
  const byId = new Map<string, RunItem>();
  let cursor: string | undefined;
  let requests = 0;
  for (;;) {
    const page = await input.agent.listRuns({
      state: LIVE_STATE_NAMES,
      updated_after: updatedAfter,
      sort_by: 'updated_at',
      sort_order: 'desc',
      limit: input.pageLimit,
      ...(cursor ? { cursor } : {}),
    });
    requests += 1;
    for (const run of page.runs) byId.set(run.run_id, run);
    if (!page.hasNextPage || !page.nextCursor) return { byId, complete: true, requests };
    if (requests >= input.maxPages) return { byId, complete: false, requests };
    cursor = page.nextCursor;
  }
}

/** Which tracked runs need their detail fetched this cycle. */
export function runsNeedingDetail(input: {
  tracked: readonly RunRecord[];
  listing: LiveListing;
  now: number;
  nudged: ReadonlySet<string>;
}): RunRecord[] {
  const { listing, now, nudged } = input;
  return input.tracked.filter((run) => {
    const item = listing.byId.get(run.runId);
    if (item) return hasChanged(run, item);
    if (nudged.has(run.runId) || run.nextCheckAt <= now) return true;
    // Live when last seen but no longer in a complete live listing: it ended or blocked.
    return listing.complete && stateView(run.state).live;
  });
}
