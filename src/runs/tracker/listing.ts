/**
 * One paged listing of runs for the batch tracker. It never throws: a failed page ends the
 * listing, and the caller gets what arrived before it (with the error) so that progress made
 * in ascending `updated_at` order is kept.
 */
import type { ListRunsQuery, RunItem } from '../../core/run.js';
import type { AgentService } from '../../core/ports/index.js';
import { epochOf } from '../run-changes.js';

export interface Listing {
  /** Items in the order the service listed them. */
  items: RunItem[];
  /** True when the last page was reached: absence from the listing then proves something. */
  complete: boolean;
  requests: number;
  /** Why the listing stopped early, when a page failed. */
  error?: unknown;
}

export async function listPaged(input: {
  agent: AgentService;
  query: Omit<ListRunsQuery, 'cursor'>;
  maxPages: number;
}): Promise<Listing> {
  const items: RunItem[] = [];
  let cursor: string | undefined;
  let requests = 0;
  for (;;) {
    let page;
    try {
      requests += 1;
      page = await input.agent.listRuns({ ...input.query, ...(cursor ? { cursor } : {}) });
    } catch (error) {
      return { items, complete: false, requests, error };
    }
    items.push(...page.runs);
    if (!page.hasNextPage || !page.nextCursor) return { items, complete: true, requests };
    if (requests >= input.maxPages) return { items, complete: false, requests };
    cursor = page.nextCursor;
  }
}

/** The greatest `updated_at` among the items (undefined for none). */
export function latestUpdate(items: readonly RunItem[]): number | undefined {
  let latest: number | undefined;
  for (const item of items) {
    const at = epochOf(item.updated_at);
    if (at !== undefined && (latest === undefined || at > latest)) latest = at;
  }
  return latest;
}
