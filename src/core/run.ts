/**
 * A run of the Agent Run Service as the relay sees it: its states and the fields the relay
 * reads and writes. The agent client (agent/) validates the service's answers with zod and
 * its schemas are checked at compile time to produce exactly these shapes; the core, the use
 * cases and the tracker know only these types. Unknown states and fields are kept, not
 * rejected: a future value passes through.
 */
import type { RunMode } from './command/run-modes.js';

export const LIVE_STATES = ['QUEUED', 'PENDING', 'CLAIMED', 'INPROGRESS'] as const;
export const ENDED_STATES = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'] as const;
export const KNOWN_STATES = [...LIVE_STATES, 'BLOCKED', ...ENDED_STATES] as const;
export type KnownRunState = (typeof KNOWN_STATES)[number];
/** A run state; unknown future states are kept as-is (and treated as live). */
export type RunState = KnownRunState | (string & {});

export function isEndedState(state: string): boolean {
  return (ENDED_STATES as readonly string[]).includes(state);
}
/** BLOCKED waits for input: not live for tracking purposes, not ended either. */
export function isBlockedState(state: string): boolean {
  return state === 'BLOCKED';
}
/** Live = the service is working on it. Unknown states count as live (contract). */
export function isLiveState(state: string): boolean {
  return !isEndedState(state) && !isBlockedState(state);
}

export interface McpServer {
  url?: string;
  headers?: Record<string, string>;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  warp_id?: string;
  [key: string]: unknown;
}

export interface AgentConfig {
  name?: string;
  model_id?: string;
  base_prompt?: string;
  environment_id?: string;
  skill_spec?: string;
  mcp_servers?: Record<string, McpServer>;
  [key: string]: unknown;
}

/** Who created or executes a run. */
export interface Principal {
  uid?: string;
  display_name?: string | null;
  email?: string | null;
  /** user | service_account | a future kind */
  type?: string;
  photo_url?: string | null;
  [key: string]: unknown;
}

export interface StatusMessage {
  message: string;
  error_code?: string | null;
  retryable?: boolean | null;
  /** A setup failure's debug window: when it closes (only while it is open). */
  session_debug_until?: string | null;
  /** A setup failure's debugging turn is running now. */
  debug_agent_active?: boolean | null;
  [key: string]: unknown;
}

export interface Artifact {
  /** PULL_REQUEST | PLAN | SCREENSHOT | FILE | EXTERNAL_REFERENCE | a future type */
  artifact_type: string;
  created_at?: string;
  data: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * `GET /agent/artifacts/{uid}`: one artifact's detail. A plan's `data` carries its current
 * Markdown (`content`) and title; other types a download link the relay does not read.
 */
export interface ArtifactDetail {
  artifact_uid: string;
  artifact_type: string;
  created_at?: string;
  data: {
    content?: string;
    content_type?: string;
    title?: string;
    url?: string;
    document_uid?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface RunItem {
  run_id: string;
  title: string;
  prompt: string;
  state: RunState;
  created_at: string;
  updated_at: string;
  session_id?: string | null;
  session_link?: string | null;
  agent_config?: AgentConfig | null;
  creator?: Principal | null;
  executor?: Principal | null;
  source?: string | null;
  started_at?: string | null;
  /** When the run last ended (newer services); absent on live runs and older services. */
  finished_at?: string | null;
  /** Cumulative over every execution of the run (an ISO 8601 duration). */
  run_time?: string | null;
  status_message?: StatusMessage | null;
  artifacts?: Artifact[] | null;
  trigger_url?: string | null;
  metadata?: Record<string, string> | null;
  conversation_id?: string | null;
  parent_run_id?: string | null;
  /** The top of an orchestration tree (newer services); equal to run_id or absent on a root. */
  root_run_id?: string | null;
  is_run_type_cancellable?: boolean | null;
  /** What the run used so far, as the service reports it (see `RequestUsage`). */
  request_usage?: RequestUsage | null;
  task_id?: string | null;
  /** A setup failure whose session is still open for debugging (follow-ups go there). */
  debug_agent_available?: boolean | null;
  [key: string]: unknown;
}

/**
 * The service's usage report for a run. Dollar figures are the service's approximate
 * conversion, not a bill; the bare `*_cost` fields are credits, not dollars. Some services
 * report the dollar figures in cents (`*_cost_cents`) instead. Every field may be missing.
 */
export interface RequestUsage {
  inference_cost?: number | null;
  compute_cost?: number | null;
  platform_cost?: number | null;
  inference_cost_usd?: number | null;
  compute_cost_usd?: number | null;
  platform_cost_usd?: number | null;
  inference_cost_cents?: number | null;
  compute_cost_cents?: number | null;
  platform_cost_cents?: number | null;
  total_tokens?: number | null;
  [key: string]: unknown;
}

/** What a run cost so far, read from its usage report: each part only when reported. */
export interface RunUsage {
  /** Approximate cost in US dollars (inference + compute + platform, those reported). */
  costUsd?: number;
  /** Total LLM tokens. */
  tokens?: number;
}

/** Run metadata: at most 20 keys, each `[A-Za-z0-9._-]{1,64}`, each value at most 256 bytes. */
export type Metadata = Record<string, string>;

export interface CreateRunRequest {
  prompt?: string;
  title?: string;
  config?: AgentConfig;
  skill?: string;
  mode?: RunMode;
  agent_identity_uid?: string;
  conversation_id?: string;
  parent_run_id?: string;
  interactive?: boolean;
  team?: boolean;
  metadata?: Metadata;
  [key: string]: unknown;
}

export interface CreateRunResponse {
  run_id: string;
  state: RunState;
  task_id?: string;
  at_capacity?: boolean;
  [key: string]: unknown;
}

export interface ListRunsQuery {
  limit?: number;
  cursor?: string;
  state?: readonly string[];
  name?: string;
  model_id?: string;
  creator?: string;
  source?: string;
  created_after?: string;
  created_before?: string;
  updated_after?: string;
  executor?: string;
  environment_id?: string;
  skill_spec?: string;
  schedule_id?: string;
  ancestor_run_id?: string;
  artifact_type?: string;
  /** Exact key/value matches, sent as `metadata[key]=value` (AND, at most 5 pairs). */
  metadata?: Readonly<Record<string, string>>;
  sort_by?: 'updated_at' | 'created_at' | 'title' | 'agent';
  sort_order?: 'asc' | 'desc';
  q?: string;
}

/** The published description's limit on metadata pairs in one list filter. */
export const MAX_METADATA_FILTER_PAIRS = 5;

export interface FollowupRequest {
  message: string;
  mode?: RunMode;
}

/** `{followup_id, outcome}` from newer services; `{}` from older ones. */
export interface FollowupResponse {
  followup_id?: string | null;
  outcome?: string | null;
  [key: string]: unknown;
}

/** A factory: a named destination that runs a prompt its own way. */
export interface Factory {
  uid: string;
  name: string;
  alias?: string | null;
  [key: string]: unknown;
}

export interface DispatchRequest {
  prompt: string;
  title?: string;
  ticket_ref?: string;
  ticket_url?: string;
}

export interface DispatchResponse {
  run_id: string;
  state: RunState;
  run_url?: string | null;
  /** The canonical `<source>:<id>` reference the run was stamped with. */
  ticket_ref?: string | null;
  [key: string]: unknown;
}
