/**
 * The emulator's public types and its internal run record. The wire shapes come from the
 * shared contract schemas (src/agent/schemas.ts).
 */
import type { AgentConfig, Artifact, CreateRunRequest, RunItem } from '../../agent/schemas.js';
import type { CatalogueContents, CatalogueControls } from './catalogue.js';
import type { EmuPlan } from './plan.js';

/** How long a run stays in each state (milliseconds). */
export interface EmulatorTimings {
  queuedMs: number;
  pendingMs: number;
  claimedMs: number;
  /** INPROGRESS before the outcome. */
  runMs: number;
  /** INPROGRESS for `[slow]` runs, and PENDING for `[pending]` runs. */
  slowRunMs: number;
}

export interface EmulatorFactory {
  uid: string;
  name: string;
  alias?: string;
}

export interface EmulatorOptions {
  /** 0 (default) = any free port. The CLI uses 8787. */
  port?: number;
  host?: string;
  apiKey?: string;
  timings?: Partial<EmulatorTimings>;
  factories?: EmulatorFactory[];
  /** The catalogue's environments and models (default: a few seeded ones, catalogue.ts). */
  catalogue?: Partial<CatalogueContents>;
  clock?: { now(): number };
  /** How often due state changes are applied (real time). Requests apply them too. */
  tickMs?: number;
  log?: (line: string) => void;
  /**
   * Play a service without the interrupt endpoint (it is in the newest SDK but not in the
   * published API description): `POST /agent/runs/{id}/interrupt` is then an unknown route,
   * answered 404 like any other. Default true.
   */
  interrupt?: boolean;
  /**
   * Words that script a run as a marker does (`{'migrate the billing tables': '[fail]'}`):
   * a prompt or follow-up containing the words (in any case) behaves as if it carried the
   * marker, so a demo or a picture can script outcomes in words a team would write.
   */
  phrases?: Readonly<Record<string, string>>;
}

/** Type aliases (not interfaces) so they fit the schemas' loose object types. */
export type Principal = {
  uid: string;
  display_name: string;
  type: 'user' | 'service_account';
  email?: string;
};

export type StatusMessage = {
  message: string;
  error_code?: string;
  retryable?: boolean;
  /** Setup failure: while its debug window is open, when the window closes (ISO time). */
  session_debug_until?: string;
  /** Setup failure: a debugging turn is running in the retained session right now. */
  debug_agent_active?: boolean;
};

/** What an execution of a run does; derived from markers in the prompt or follow-up. */
export interface Script {
  outcome: 'SUCCEEDED' | 'FAILED' | 'ERROR' | 'BLOCKED';
  slow: boolean;
  holdPending: boolean;
  /** BLOCKED waiting for an approval: the agent's last act is the action it waits on. */
  approval?: boolean;
  /** Plan mode: the execution writes a plan and waits BLOCKED for its approval (plan.ts). */
  plan?: boolean;
}

/** The emulator's own record of a run (mutable, internal). */
export interface EmuRun {
  seq: number;
  runId: string;
  title: string;
  /** Lower-cased title: the `title` sort key. */
  titleKey: string;
  /** Lower-cased title + prompt: what `q` searches. */
  searchText: string;
  prompt: string;
  state: string;
  createdAt: number;
  updatedAt: number;
  startedAt?: number;
  /** Cumulative over every execution (the published run_time), whole seconds on the wire. */
  runTimeMs?: number;
  /** Run time of executions before the current one. */
  earlierRunTimeMs: number;
  finishedAt?: number;
  sessionId: string;
  agentConfig?: AgentConfig;
  creator: Principal;
  executor?: Principal;
  source: string;
  statusMessage?: StatusMessage;
  artifacts: Artifact[];
  triggerUrl?: string;
  metadata: Record<string, string>;
  conversationId: string;
  parentRunId?: string;
  rootRunId?: string;
  /** Ownership: `Team` when created with `team: true`, else personal (see new-run.ts). */
  scope: { type: 'User' | 'Team'; uid: string };
  cancellable: boolean;
  /** What the run used so far (`request_usage`); absent until an execution starts working. */
  usage?: { inferenceUsd: number; computeUsd: number; platformUsd: number; tokens: number };
  history: StateEntry[];
  script: Script;
  /** Scheduling generation: a queued transition applies only while it matches. */
  gen: number;
  /** Held by setState(): no automatic transitions until advanced or followed up. */
  manual: boolean;
  /** Its plan document, once an execution in plan mode wrote one (plan.ts). */
  plan?: EmuPlan;
  /** Changes asked for by follow-ups in plan mode, oldest first (the revisions' subject). */
  planChanges?: string[];
  /**
   * Setup failure with its debug window open until then (epoch ms): follow-ups go to a
   * debugging session and the run stays FAILED (debug-window.ts).
   */
  debugUntil?: number;
}

export interface StateEntry {
  state: string;
  /** Epoch ms when the state was entered. */
  at: number;
}

export interface RecordedFollowup {
  followupId: string;
  runId: string;
  message: string;
  mode?: string;
  at: number;
}

export interface FailOptions {
  retryAfterSeconds?: number;
  /**
   * Handle the request first, then answer the error all the same: the published service's
   * capacity 429, which queues the run it refuses to confirm.
   */
  processed?: boolean;
  /** Only requests to this route template (e.g. 'POST /agent/runs') consume the fault. */
  route?: string;
  /**
   * The service's error code for the answer (the last segment of its problem `type`), e.g.
   * `insufficient_credits` with 403 or `external_authentication_required` with 401.
   */
  errorCode?: string;
  /** `external_authentication_required`: the provider to authorize (e.g. `linear`). */
  provider?: string;
  /** `external_authentication_required`: where the caller authorizes the provider. */
  authUrl?: string;
}

export interface DropOptions {
  /** Handle the request first, then destroy the socket instead of answering. */
  afterProcessing?: boolean;
  route?: string;
}

export interface FaultControls {
  /** Answer the next `n` contract requests with `status` (problem body, nothing processed). */
  failNext(n: number, status: number, opts?: FailOptions): void;
  /** Destroy the socket of the next `n` contract requests without an answer. */
  dropNext(n: number, opts?: DropOptions): void;
  /** Delay every contract request by `ms` (real time). */
  setLatency(ms: number): void;
  /**
   * The next `n` runs created answer `at_capacity: true`: the service took the run, but it is
   * full, so the run waits in QUEUED behind others (the answer is 200 all the same).
   */
  atCapacityNext(n: number): void;
  /**
   * Serve run `runId` off the published description: `patch` is merged into its wire item
   * in lists and detail (`null` values included; a key mapped to `undefined` is removed).
   */
  offSpec(runId: string, patch: Record<string, unknown>): void;
  /** Answer 403 `feature_not_available` to a list with a `metadata[...]` filter. */
  metadataFilterUnavailable(on: boolean): void;
  clear(): void;
  snapshot(): FaultSnapshot;
}

/** One armed fault: fail or drop the next `remaining` matching requests. */
export interface FaultRule {
  kind: 'fail' | 'drop';
  remaining: number;
  status?: number;
  route?: string;
  retryAfterSeconds?: number;
  afterProcessing?: boolean;
  processed?: boolean;
  errorCode?: string;
  provider?: string;
  authUrl?: string;
}

export interface FaultSnapshot {
  latencyMs: number;
  metadataFilterUnavailable: boolean;
  offSpecRuns: string[];
  /** How many of the next created runs still answer `at_capacity: true`. */
  atCapacityNext: number;
  rules: FaultRule[];
}

export interface RequestCounters {
  /** Requests seen for a route template such as 'GET /agent/runs' (0 when none). */
  get(route: string): number;
  snapshot(): Record<string, number>;
  total(): number;
  reset(): void;
}

export interface SeedOptions {
  prompt?: string | ((i: number) => string);
  state?: string;
  metadata?: Record<string, string> | ((i: number) => Record<string, string>);
  config?: AgentConfig;
  /** created_at spacing, going back in time from now (default 1000 ms). */
  spreadMs?: number;
  /** Hold the seeded state: no automatic transitions (default false). */
  manual?: boolean;
}

export interface DirectRunOptions {
  state?: string;
  manual?: boolean;
  createdAt?: number;
  creator?: Principal;
}

export interface Emulator {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  /** url + '/api/v1' */
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
  runs: { get(runId: string): RunItem | undefined; all(): RunItem[]; count(): number };
  /** Every follow-up accepted, oldest first (live view). */
  followups: readonly RecordedFollowup[];
  requests: RequestCounters;
  /** When each state was entered, oldest first ([] for an unknown run). */
  history(runId: string): StateEntry[];
  faults: FaultControls;
  seedRuns(n: number, opts?: SeedOptions): string[];
  createRunDirect(req: CreateRunRequest, opts?: DirectRunOptions): RunItem;
  /** Next scripted state now (or `state`), then automatic progression from there. */
  advance(runId: string, state?: string): RunItem | undefined;
  /** Set `state` now and hold it (no automatic transitions). */
  setState(runId: string, state: string): RunItem | undefined;
  /** Apply every transition due by the clock now (requests and the tick do this too). */
  tick(): void;
  /**
   * The run fails in environment setup (FAILED, `environment_setup_failed`) and keeps its
   * session open for debugging for `debugWindowMs`: follow-ups in that window go to a
   * debugging session and leave the run FAILED (debug-window.ts).
   */
  failSetup(runId: string, debugWindowMs: number): RunItem | undefined;
  /** What `GET /agent/environments` and `GET /agent/models` list. */
  catalogue: CatalogueControls;
  /** The run's agent spends `usd` more now: its usage report grows, its updated_at moves. */
  spend(runId: string, usd: number): RunItem | undefined;
}
