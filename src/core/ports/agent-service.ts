/**
 * What the core needs from the Agent Run Service. The agent client (agent/) implements it;
 * the emulator serves the same contract, so both are interchangeable behind this port.
 */
import type {
  ArtifactDetail,
  CreateRunRequest,
  CreateRunResponse,
  DispatchRequest,
  DispatchResponse,
  Factory,
  FollowupRequest,
  FollowupResponse,
  ListRunsQuery,
  RunItem,
} from '../run.js';
import type { Conversation, Timeline } from '../conversation.js';

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
}

export interface RunPage {
  runs: RunItem[];
  hasNextPage: boolean;
  nextCursor?: string;
}

/**
 * What the core needs from the Agent Run Service, in the core's own run types (`run.ts`). The
 * agent client implements it; its errors carry a stable `code`, `status` and `retryable` the
 * core reads through `isServiceError` (never by class or message text).
 */
export interface AgentService {
  createRun(request: CreateRunRequest, options?: CallOptions): Promise<CreateRunResponse>;
  listRuns(query?: ListRunsQuery, options?: CallOptions): Promise<RunPage>;
  getRun(runId: string, options?: CallOptions): Promise<RunItem>;
  /** The service's answer (`{followup_id, outcome}` from newer services) when it gave one. */
  sendFollowup(
    runId: string,
    body: FollowupRequest,
    options?: CallOptions,
  ): Promise<FollowupResponse | void>;
  cancelRun(runId: string, options?: CallOptions): Promise<void>;
  /**
   * Stops the agent's current turn and keeps the run open for a follow-up. Errors: 400 when no
   * turn runs (BLOCKED or ended), 409 before the agent started, 422 for a run type that cannot
   * be interrupted, 404 when unknown.
   */
  interruptRun(runId: string, options?: CallOptions): Promise<void>;
  listFactories(query: { search?: string }, options?: CallOptions): Promise<Factory[]>;
  dispatchToFactory(
    uid: string,
    body: DispatchRequest,
    options?: CallOptions,
  ): Promise<DispatchResponse>;
  /**
   * Find a run created with `metadata.relay_request === requestId` (reconciliation after a
   * create whose outcome is unknown). `createdAfter` bounds the search (RFC 3339).
   */
  findRunByRequest(requestId: string, createdAfter: string): Promise<RunItem | undefined>;
  /**
   * The run's normalized conversation (progress and the agent's own answer). Optional: a
   * service port without it shows state only. `not_found` (no conversation yet) and
   * `unprocessable` (format not supported) are answers, not failures.
   */
  getConversation?(runId: string, options?: CallOptions): Promise<Conversation>;
  /** The run's setup and lifecycle events (what set-up has done so far). */
  getTimeline?(runId: string, options?: CallOptions): Promise<Timeline>;
  /**
   * One artifact by its uid (`GET /agent/artifacts/{uid}`): a plan's current Markdown.
   * Optional: a service port without it shows a plan by its link only.
   */
  getArtifact?(artifactUid: string, options?: CallOptions): Promise<ArtifactDetail>;
}
