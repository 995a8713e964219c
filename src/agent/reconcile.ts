/**
 * Reconciliation of an unsafe create: the service has no idempotency key, so when a create's
 * outcome is unknown we look for the run by our own stamp (`metadata.relay_request`) instead
 * of sending it again. The service has no metadata filter: we match on the client side.
 */
import type { RunPage } from '../core/ports/index.js';
import { AgentApiError } from './errors.js';
import type { ApiResponse } from './http.js';
import { iterateRunPages, type FetchRunPage } from './pagination.js';
import type { CreateRunResponse, RunItem } from './schemas.js';

export const RECONCILE_PAGE_LIMIT = 100;
export const RECONCILE_MAX_PAGES = 10;
/** Look this far before the first attempt (clock skew between us and the service). */
export const RECONCILE_WINDOW_MS = 60_000;

export type RunPageResponse = RunPage & Pick<ApiResponse<unknown>, 'status' | 'headers'>;

/** Scan runs created after `createdAfter`, newest first, for `metadata.relay_request`. */
export async function scanForRequest(
  fetchPage: FetchRunPage<RunPageResponse>,
  requestId: string,
): Promise<ApiResponse<RunItem | undefined>> {
  let last: ApiResponse<RunItem | undefined> = { data: undefined, status: 200, headers: {} };
  for await (const page of iterateRunPages(fetchPage, undefined, RECONCILE_MAX_PAGES)) {
    const run = page.runs.find((item) => item.metadata?.relay_request === requestId);
    last = { data: run, status: page.status, headers: page.headers };
    if (run) return last;
  }
  return last;
}

export type CreateApiResponse = ApiResponse<CreateRunResponse> & { reconciled?: boolean };

export interface ReconcileDeps {
  create: () => Promise<ApiResponse<CreateRunResponse>>;
  find: (requestId: string, createdAfter: string) => Promise<ApiResponse<RunItem | undefined>>;
  now: () => number;
}

/**
 * Create once; when the outcome is unknown and the request carries a `relay_request` stamp,
 * return the run the service did create, or rethrow with `outcomeUnknown` set.
 */
export async function createWithReconcile(
  deps: ReconcileDeps,
  requestId: string | undefined,
): Promise<CreateApiResponse> {
  const startedAt = deps.now();
  try {
    return await deps.create();
  } catch (err) {
    if (!(err instanceof AgentApiError) || !err.outcomeUnknown || !requestId) throw err;
    let found: ApiResponse<RunItem | undefined>;
    try {
      found = await deps.find(requestId, new Date(startedAt - RECONCILE_WINDOW_MS).toISOString());
    } catch (findErr) {
      // An abort by the caller wins; a failing search leaves the outcome unknown.
      throw findErr instanceof AgentApiError ? err : findErr;
    }
    if (!found.data) throw err;
    const { run_id, state } = found.data;
    return {
      data: { run_id, state },
      status: found.status,
      headers: found.headers,
      reconciled: true,
    };
  }
}
