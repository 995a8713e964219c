/**
 * Cursor pagination over the run list: follows `page_info.next_cursor` until the service says
 * there is no next page (or repeats a cursor, which would otherwise loop forever).
 */
import type { RunPage } from '../core/ports/index.js';
import type { RunItem } from './schemas.js';

export type FetchRunPage<P extends RunPage = RunPage> = (cursor: string | undefined) => Promise<P>;

export async function* iterateRunPages<P extends RunPage>(
  fetchPage: FetchRunPage<P>,
  firstCursor?: string,
  maxPages = Number.POSITIVE_INFINITY,
): AsyncGenerator<P, void, undefined> {
  const seen = new Set<string>();
  let cursor = firstCursor;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await fetchPage(cursor);
    yield page;
    const next = page.nextCursor;
    if (!page.hasNextPage || !next || seen.has(next)) return;
    seen.add(next);
    cursor = next;
  }
}

export async function* iterateRuns(
  fetchPage: FetchRunPage,
  firstCursor?: string,
): AsyncGenerator<RunItem, void, undefined> {
  for await (const page of iterateRunPages(fetchPage, firstCursor)) {
    yield* page.runs;
  }
}
