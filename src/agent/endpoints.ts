/**
 * Every call of the contract as one function answering `{data, status, headers}`: the layer
 * under the client's plain methods, exposed to callers as `client.withResponse`.
 */
import type { CallOptions, RunPage } from '../core/ports/index.js';
import type { ApiResponse, Endpoint, Http } from './http.js';
import {
  createWithReconcile,
  findByStamp,
  RECONCILE_PAGE_LIMIT,
  type CreateApiResponse,
  type RunPageResponse,
} from './reconcile.js';
import { createRunItemParser, type OffSpecRunItem } from './run-items.js';
import {
  CancelResponseSchema,
  CreateRunResponseSchema,
  InterruptResponseSchema,
  DispatchResponseSchema,
  FactorySchema,
  FollowupResponseSchema,
  ListEnvironmentsResponseSchema,
  ListFactoriesResponseSchema,
  ListModelsResponseSchema,
  ListRunsEnvelopeSchema,
  RunItemSchema,
  type CreateRunRequest,
  type DispatchRequest,
  type DispatchResponse,
  type Factory,
  type FollowupRequest,
  type FollowupResponse,
  type ListRunsQuery,
  type RunItem,
  type CloudEnvironment,
  type ListModelsResponse,
} from './schemas.js';

/** Every call again, answering `{data, status, headers}`; void calls answer their parsed body. */
export interface AgentClientWithResponse {
  /** `reconciled: true` when the run was found by its `relay_request` stamp after an unknown outcome. */
  createRun(request: CreateRunRequest, options?: CallOptions): Promise<CreateApiResponse>;
  listRuns(query?: ListRunsQuery, options?: CallOptions): Promise<ApiResponse<RunPage>>;
  getRun(runId: string, options?: CallOptions): Promise<ApiResponse<RunItem>>;
  sendFollowup(
    runId: string,
    body: FollowupRequest,
    options?: CallOptions,
  ): Promise<ApiResponse<FollowupResponse>>;
  /** `data`: the service's answer, normally the run id as a string (an object is tolerated). */
  cancelRun(
    runId: string,
    options?: CallOptions,
  ): Promise<ApiResponse<string | Record<string, unknown> | undefined>>;
  /** Stops the agent's current turn; the run stays open for a follow-up (202). */
  interruptRun(
    runId: string,
    options?: CallOptions,
  ): Promise<ApiResponse<string | Record<string, unknown> | undefined>>;
  listFactories(
    query?: { search?: string },
    options?: CallOptions,
  ): Promise<ApiResponse<Factory[]>>;
  getFactory(uid: string, options?: CallOptions): Promise<ApiResponse<Factory>>;
  dispatchToFactory(
    uid: string,
    body: DispatchRequest,
    options?: CallOptions,
  ): Promise<ApiResponse<DispatchResponse>>;
  /** The environments the key may use (`GET /agent/environments`). */
  listEnvironments(options?: CallOptions): Promise<ApiResponse<CloudEnvironment[]>>;
  /** The models the key may use and the default (`GET /agent/models`). */
  listModels(options?: CallOptions): Promise<ApiResponse<ListModelsResponse>>;
  /** Status and headers are those of the last list page read. */
  findRunByRequest(
    requestId: string,
    createdAfter: string,
    options?: CallOptions,
  ): Promise<ApiResponse<RunItem | undefined>>;
}

export interface Endpoints extends AgentClientWithResponse {
  /** One list page with the answer's status and headers (pagination and reconciliation). */
  listRunPage(query: ListRunsQuery, options?: CallOptions): Promise<RunPageResponse>;
}

function get<T>(ep: Omit<Endpoint<T>, 'method' | 'policy'>): Endpoint<T> {
  return { ...ep, method: 'GET', policy: 'idempotent' };
}

/** POSTs that must not be repeated blindly (no idempotency key): create, dispatch, follow-up. */
function unsafePost<T>(ep: Omit<Endpoint<T>, 'method' | 'policy'>): Endpoint<T> {
  return { ...ep, method: 'POST', policy: 'unsafe' };
}

/** Factory pages read for one search (a team has few factories; this only bounds a loop). */
export const MAX_FACTORY_PAGES = 20;

/** How long the client goes straight to the scan after the service said it cannot filter. */
export const FILTER_UNAVAILABLE_MS = 10 * 60_000;

export interface EndpointHooks {
  onOffSpecRunItem?: (item: OffSpecRunItem) => void;
}

export function createEndpoints(
  http: Http,
  now: () => number,
  hooks: EndpointHooks = {},
): Endpoints {
  const parseItems = createRunItemParser(hooks.onOffSpecRunItem);
  let filterUnavailableUntil = 0;

  async function listRunPage(query: ListRunsQuery, o?: CallOptions): Promise<RunPageResponse> {
    const { metadata, ...rest } = query;
    const wire: Record<string, unknown> = { ...rest };
    for (const [key, value] of Object.entries(metadata ?? {})) wire[`metadata[${key}]`] = value;
    const res = await http(
      get({ route: '/agent/runs', query: wire, schema: ListRunsEnvelopeSchema }),
      o,
    );
    const next = res.data.page_info.next_cursor;
    return {
      runs: parseItems(res.data.runs),
      hasNextPage: res.data.page_info.has_next_page,
      ...(next ? { nextCursor: next } : {}),
      status: res.status,
      headers: res.headers,
    };
  }

  const getRun = (runId: string, o?: CallOptions) =>
    http(get({ route: '/agent/runs/{runId}', params: { runId }, schema: RunItemSchema }), o);

  const findRunByRequest = (requestId: string, createdAfter: string, o?: CallOptions) =>
    findByStamp(
      {
        listPage: (filtered, cursor) =>
          listRunPage(
            {
              created_after: createdAfter,
              sort_by: 'created_at',
              sort_order: 'desc',
              limit: RECONCILE_PAGE_LIMIT,
              ...(filtered ? { metadata: { relay_request: requestId } } : {}),
              ...(cursor ? { cursor } : {}),
            },
            o,
          ),
        getRun: (runId) => getRun(runId, o),
        filterAvailable: () => now() >= filterUnavailableUntil,
        onFilterUnavailable: () => {
          filterUnavailableUntil = now() + FILTER_UNAVAILABLE_MS;
        },
      },
      requestId,
    );

  return {
    listRunPage,
    findRunByRequest,
    createRun: (request, o) =>
      createWithReconcile(
        {
          create: () =>
            http(
              {
                method: 'POST',
                route: '/agent/runs',
                body: request,
                schema: CreateRunResponseSchema,
                // A stamped create can be looked up, so a 429 is settled by looking first.
                policy: request.metadata?.relay_request ? 'create' : 'unsafe',
              },
              o,
            ),
          find: (requestId, createdAfter) => findRunByRequest(requestId, createdAfter, o),
          now,
          maxRetries: http.maxRetries(o),
          wait: (retry, retryAfterMs) => http.waitBeforeRetry(retry, retryAfterMs, o),
        },
        request.metadata?.relay_request,
      ),
    listRuns: async (query = {}, o) => {
      const { status, headers, ...page } = await listRunPage(query, o);
      return { data: page, status, headers };
    },
    getRun,
    sendFollowup: async (runId, body, o) => {
      const route = '/agent/runs/{runId}/followups';
      const schema = FollowupResponseSchema.optional();
      const res = await http(unsafePost({ route, params: { runId }, body, schema }), o);
      return { ...res, data: res.data ?? {} };
    },
    // Cancelling twice is harmless, so cancel retries like a read.
    cancelRun: (runId, o) =>
      http(
        {
          method: 'POST',
          route: '/agent/runs/{runId}/cancel',
          params: { runId },
          schema: CancelResponseSchema.optional(),
          policy: 'idempotent',
        },
        o,
      ),
    // A repeated interrupt is refused (the run already waits), so it is not retried blindly.
    interruptRun: (runId, o) =>
      http(
        unsafePost({
          route: '/agent/runs/{runId}/interrupt',
          params: { runId },
          schema: InterruptResponseSchema.optional(),
        }),
        o,
      ),
    listFactories: async (query = {}, o) => {
      const schema = ListFactoriesResponseSchema;
      const factories: Factory[] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (let pages = 1; ; pages++) {
        const res = await http(
          get({ route: '/factory', query: { search: query.search, cursor }, schema }),
          o,
        );
        factories.push(...res.data.factories);
        const next = res.data.page_info?.next_cursor;
        const more = res.data.page_info?.has_next_page !== false && res.data.factories.length > 0;
        if (!more || !next || seen.has(next) || pages >= MAX_FACTORY_PAGES) {
          return { ...res, data: factories };
        }
        seen.add(next);
        cursor = next;
      }
    },
    listEnvironments: async (o) => {
      const schema = ListEnvironmentsResponseSchema;
      const res = await http(get({ route: '/agent/environments', schema }), o);
      return { ...res, data: res.data.environments };
    },
    listModels: (o) => http(get({ route: '/agent/models', schema: ListModelsResponseSchema }), o),
    getFactory: (uid, o) =>
      http(get({ route: '/factory/{uid}', params: { uid }, schema: FactorySchema }), o),
    dispatchToFactory: (uid, body, o) =>
      http(
        unsafePost({
          route: '/factory/{uid}/runs',
          params: { uid },
          body,
          schema: DispatchResponseSchema,
        }),
        o,
      ),
  };
}
