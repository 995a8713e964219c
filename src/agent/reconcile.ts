/**
 * Reconciliation of an unsafe create: the service has no idempotency key, so when a create's
 * outcome is unknown we look for the run by our own stamp (`metadata.relay_request`) instead
 * of sending it again.
 *
 * The lookup asks the service to filter (`metadata[relay_request]=…`), so it does not depend on
 * how many other runs the team has; where the service answers 403 `feature_not_available`
 * (metadata filtering not enabled) it scans recent runs and matches here. Child runs inherit
 * their parent's metadata, stamp included: of the matches, the run without a parent is ours.
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

/** Whether an error says the service has metadata filtering turned off for this caller. */
export function isFeatureNotAvailable(err: unknown): boolean {
  return err instanceof AgentApiError && err.serviceCode === 'feature_not_available';
}

/** A run that no other run spawned (the top of its orchestration tree, if any). */
export function isRootRun(run: Pick<RunItem, 'run_id' | 'parent_run_id' | 'root_run_id'>): boolean {
  if (run.parent_run_id) return false;
  return !run.root_run_id || run.root_run_id === run.run_id;
}

/**
 * Read pages (bounded) and keep every run carrying the stamp; stop at the first root match.
 * `matches` is all of them when no root was among them (the caller may follow a child up).
 */
export async function collectStamped(
  fetchPage: FetchRunPage<RunPageResponse>,
  requestId: string,
): Promise<ApiResponse<RunItem[]>> {
  let last: ApiResponse<RunItem[]> = { data: [], status: 200, headers: {} };
  const matches: RunItem[] = [];
  for await (const page of iterateRunPages(fetchPage, undefined, RECONCILE_MAX_PAGES)) {
    const found = page.runs.filter((item) => item.metadata?.relay_request === requestId);
    matches.push(...found);
    last = { data: matches, status: page.status, headers: page.headers };
    if (found.some(isRootRun)) break;
  }
  return last;
}

export interface FindByStampDeps {
  /** One page of the list (with the metadata filter when `filtered`). */
  listPage: (filtered: boolean, cursor: string | undefined) => Promise<RunPageResponse>;
  /** One run by id (to follow a matching child up to its root). */
  getRun: (runId: string) => Promise<ApiResponse<RunItem>>;
  /** Whether to ask the service to filter (false once it said it cannot). */
  filterAvailable: () => boolean;
  onFilterUnavailable: () => void;
}

/** The run our create made (the root carrying `relay_request`), if the service has it. */
export async function findByStamp(
  deps: FindByStampDeps,
  requestId: string,
): Promise<ApiResponse<RunItem | undefined>> {
  let found: ApiResponse<RunItem[]> | undefined;
  if (deps.filterAvailable()) {
    try {
      found = await collectStamped((cursor) => deps.listPage(true, cursor), requestId);
    } catch (err) {
      if (!isFeatureNotAvailable(err)) throw err;
      deps.onFilterUnavailable();
    }
  }
  found ??= await collectStamped((cursor) => deps.listPage(false, cursor), requestId);
  const { data: matches, status, headers } = found;
  const root = matches.find(isRootRun);
  if (root || matches.length === 0) return { data: root, status, headers };
  // Only descendants were listed (the root fell outside the window, or was skipped as
  // off-spec): follow one up, and adopt the root only if it carries our stamp itself.
  const child = matches[0] as RunItem;
  const upId = child.root_run_id ?? child.parent_run_id;
  if (!upId) return { data: undefined, status, headers };
  const up = await deps.getRun(upId);
  const adopt = up.data.metadata?.relay_request === requestId && isRootRun(up.data);
  return { ...up, data: adopt ? up.data : undefined };
}

export type CreateApiResponse = ApiResponse<CreateRunResponse> & { reconciled?: boolean };

export interface ReconcileDeps {
  create: () => Promise<ApiResponse<CreateRunResponse>>;
  find: (requestId: string, createdAfter: string) => Promise<ApiResponse<RunItem | undefined>>;
  now: () => number;
  /** Sends a 429'd create may make again (after looking for it each time). */
  maxRetries: number;
  wait: (retry: number, retryAfterMs: number | undefined) => Promise<void>;
}

/**
 * Create; when the outcome is unknown and the request carries a `relay_request` stamp,
 * return the run the service did create, or rethrow with `outcomeUnknown` set. A 429 (the
 * service may have queued the run anyway) is followed by the wait it asked for and a look by
 * stamp; only when the run is not there is the create sent again.
 */
export async function createWithReconcile(
  deps: ReconcileDeps,
  requestId: string | undefined,
): Promise<CreateApiResponse> {
  const startedAt = deps.now();
  const createdAfter = (): string => new Date(startedAt - RECONCILE_WINDOW_MS).toISOString();
  for (let retry = 0; ; retry++) {
    let err: unknown;
    try {
      return await deps.create();
    } catch (caught) {
      err = caught;
    }
    if (!(err instanceof AgentApiError) || !requestId) throw err;
    const refused = err.status === 429 && !err.outcomeUnknown;
    if (!refused && !err.outcomeUnknown) throw err;
    if (refused) {
      // Out of retries: the caller retries later (and reconciles then).
      if (retry >= deps.maxRetries) throw err;
      await deps.wait(retry, err.retryAfterMs);
    }
    let found: ApiResponse<RunItem | undefined>;
    try {
      found = await deps.find(requestId, createdAfter());
    } catch (findErr) {
      // An abort by the caller wins; a failing search leaves the outcome unknown.
      throw findErr instanceof AgentApiError ? err : findErr;
    }
    if (found.data) {
      const { run_id, state } = found.data;
      return {
        data: { run_id, state },
        status: found.status,
        headers: found.headers,
        reconciled: true,
      };
    }
    if (!refused) throw err;
  }
}
