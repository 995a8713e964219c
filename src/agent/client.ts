/**
 * The Agent Run Service client (docs/agent-api.md): implements the core's `AgentService`
 * port, plus `getFactory`, an async iterator over all runs (`runs.list`), and `withResponse`
 * (the same calls answering `{data, status, headers}`).
 */
import type { Dispatcher } from 'undici';
import {
  systemClock,
  type AgentService,
  type CallOptions,
  type Clock,
} from '../core/ports/index.js';
import { createEndpoints, type AgentClientWithResponse } from './endpoints.js';
import { createHttp, type AgentRequestInfo } from './http.js';
import { validateClientOptions } from './options.js';
import { iterateRuns } from './pagination.js';
import { createProgressEndpoints } from './progress-endpoints.js';
import type { OffSpecRunItem } from './run-items.js';
import type { Conversation, Timeline } from '../core/conversation.js';
import type { ArtifactDetail, Factory, ListRunsQuery, RunItem } from './schemas.js';
import type { CloudEnvironment, ListModelsResponse } from './schemas.js';
import { packageVersion } from './version.js';

export type { AgentClientWithResponse } from './endpoints.js';

export interface AgentClientOptions {
  /** Versioned root, e.g. `http://127.0.0.1:8787/api/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Per attempt; default 60 s. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 2. */
  maxRetries?: number;
  /** Default `agent-relay/<package version>`. */
  userAgent?: string;
  dispatcher?: Dispatcher;
  /** Jitter source in [0, 1); default Math.random. */
  random?: () => number;
  /** Waits between retries (tests record the delays instead of waiting). */
  sleep?: (ms: number) => Promise<void>;
  /** For Retry-After HTTP dates and the reconciliation window; default the system clock. */
  clock?: Clock;
  /** Called after every HTTP attempt (metrics); `route` is the path template. */
  onRequest?: (info: AgentRequestInfo) => void;
  /**
   * Called once per run id for a listed run that is off the published description: kept
   * without the odd optional fields, or skipped when its id, state or times cannot be read.
   */
  onOffSpecRunItem?: (item: OffSpecRunItem) => void;
}

export interface AgentClient extends AgentService {
  getConversation(runId: string, options?: CallOptions): Promise<Conversation>;
  getTimeline(runId: string, options?: CallOptions): Promise<Timeline>;
  getArtifact(artifactUid: string, options?: CallOptions): Promise<ArtifactDetail>;
  listFactories(query?: { search?: string }, options?: CallOptions): Promise<Factory[]>;
  getFactory(uid: string, options?: CallOptions): Promise<Factory>;
  findRunByRequest(
    requestId: string,
    createdAfter: string,
    options?: CallOptions,
  ): Promise<RunItem | undefined>;
  listEnvironments(options?: CallOptions): Promise<CloudEnvironment[]>;
  listModels(options?: CallOptions): Promise<ListModelsResponse>;
  readonly runs: {
    /** Every run matching `query`, page after page: `for await (const run of client.runs.list())`. */
    list(query?: ListRunsQuery, options?: CallOptions): AsyncIterable<RunItem>;
  };
  readonly withResponse: AgentClientWithResponse;
}

export function createAgentClient(options: AgentClientOptions): AgentClient {
  validateClientOptions(options);
  const clock = options.clock ?? systemClock;
  const now = (): number => clock.now();
  const http = createHttp({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 2,
    userAgent: options.userAgent ?? `agent-relay/${packageVersion()}`,
    dispatcher: options.dispatcher,
    random: options.random ?? Math.random,
    sleep: options.sleep,
    now,
    onRequest: options.onRequest,
  });
  const api = createEndpoints(http, now, {
    ...(options.onOffSpecRunItem ? { onOffSpecRunItem: options.onOffSpecRunItem } : {}),
  });
  const { listRunPage, ...withResponse } = api;
  const progress = createProgressEndpoints(http);

  return {
    createRun: async (request, o) => (await api.createRun(request, o)).data,
    listRuns: async (query, o) => (await api.listRuns(query, o)).data,
    getRun: async (runId, o) => (await api.getRun(runId, o)).data,
    sendFollowup: async (runId, body, o) => (await api.sendFollowup(runId, body, o)).data,
    cancelRun: async (runId, o) => {
      await api.cancelRun(runId, o);
    },
    interruptRun: async (runId, o) => {
      await api.interruptRun(runId, o);
    },
    listFactories: async (query, o) => (await api.listFactories(query, o)).data,
    getFactory: async (uid, o) => (await api.getFactory(uid, o)).data,
    dispatchToFactory: async (uid, body, o) => (await api.dispatchToFactory(uid, body, o)).data,
    findRunByRequest: async (requestId, createdAfter, o) =>
      (await api.findRunByRequest(requestId, createdAfter, o)).data,
    listEnvironments: async (o) => (await api.listEnvironments(o)).data,
    listModels: async (o) => (await api.listModels(o)).data,
    getConversation: async (runId, o) => (await progress.getConversation(runId, o)).data,
    getTimeline: async (runId, o) => (await progress.getTimeline(runId, o)).data,
    getArtifact: async (uid, o) => (await progress.getArtifact(uid, o)).data,
    runs: {
      list: (query = {}, o) =>
        iterateRuns((cursor) => listRunPage({ ...query, cursor }, o), query.cursor),
    },
    withResponse,
  };
}
