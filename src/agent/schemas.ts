/**
 * The Agent Run Service contract (docs/agent-api.md) as zod schemas.
 *
 * Every byte the service sends passes one of these at the border. Objects are `looseObject`
 * so unknown fields pass through untouched; states and error codes are plain strings so a
 * future value is kept, not rejected.
 */
import { z } from 'zod';
import { RUN_MODES, type RunMode } from '../core/command/run-modes.js';

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

export const RunStateSchema = z.string().min(1) as z.ZodType<RunState>;

export const McpServerSchema = z.looseObject({
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  warp_id: z.string().optional(),
});

export const AgentConfigSchema = z.looseObject({
  name: z.string().optional(),
  model_id: z.string().optional(),
  base_prompt: z.string().optional(),
  environment_id: z.string().optional(),
  skill_spec: z.string().optional(),
  mcp_servers: z.record(z.string(), McpServerSchema).optional(),
});
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

export const METADATA_KEY_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const MetadataSchema = z
  .record(
    z.string().regex(METADATA_KEY_PATTERN),
    z.string().refine((v) => Buffer.byteLength(v, 'utf8') <= 256, 'at most 256 bytes'),
  )
  .refine((m) => Object.keys(m).length <= 20, 'at most 20 keys');
export type Metadata = Record<string, string>;

export const CreateRunRequestSchema = z.looseObject({
  prompt: z.string().optional(),
  title: z.string().optional(),
  config: AgentConfigSchema.optional(),
  skill: z.string().optional(),
  mode: z.enum(RUN_MODES).optional(),
  agent_identity_uid: z.string().optional(),
  conversation_id: z.string().optional(),
  parent_run_id: z.string().optional(),
  interactive: z.boolean().optional(),
  team: z.boolean().optional(),
  metadata: MetadataSchema.optional(),
});
export type CreateRunRequest = z.infer<typeof CreateRunRequestSchema>;

export const CreateRunResponseSchema = z.looseObject({
  run_id: z.string().min(1),
  state: RunStateSchema,
  task_id: z.string().optional(),
  at_capacity: z.boolean().optional(),
});
export type CreateRunResponse = z.infer<typeof CreateRunResponseSchema>;

export const PrincipalSchema = z.looseObject({
  uid: z.string().optional(),
  display_name: z.string().nullish(),
  email: z.string().nullish(),
  type: z.string().optional(), // user | service_account | future
  photo_url: z.string().nullish(),
});

export const StatusMessageSchema = z.looseObject({
  message: z.string(),
  error_code: z.string().nullish(),
  retryable: z.boolean().nullish(),
});

export const ArtifactSchema = z.looseObject({
  artifact_type: z.string(), // PULL_REQUEST | PLAN | SCREENSHOT | FILE | EXTERNAL_REFERENCE | future
  created_at: z.string().optional(),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type Artifact = z.infer<typeof ArtifactSchema>;

export const RunItemSchema = z.looseObject({
  run_id: z.string().min(1),
  title: z.string(),
  prompt: z.string(),
  state: RunStateSchema,
  created_at: z.string(),
  updated_at: z.string(),
  session_id: z.string().nullish(),
  session_link: z.string().nullish(),
  agent_config: AgentConfigSchema.nullish(),
  creator: PrincipalSchema.nullish(),
  executor: PrincipalSchema.nullish(),
  source: z.string().nullish(),
  started_at: z.string().nullish(),
  /** When the run last ended (newer services); absent on live runs and older services. */
  finished_at: z.string().nullish(),
  /** Cumulative over every execution of the run (an ISO 8601 duration). */
  run_time: z.string().nullish(),
  status_message: StatusMessageSchema.nullish(),
  artifacts: z.array(ArtifactSchema).nullish(),
  trigger_url: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  conversation_id: z.string().nullish(),
  parent_run_id: z.string().nullish(),
  /** The top of an orchestration tree (newer services); equal to run_id or absent on a root. */
  root_run_id: z.string().nullish(),
  is_run_type_cancellable: z.boolean().nullish(),
  request_usage: z.unknown().optional(),
  task_id: z.string().nullish(),
});
export type RunItem = z.infer<typeof RunItemSchema>;

export const PageInfoSchema = z.looseObject({
  has_next_page: z.boolean(),
  next_cursor: z.string().nullish(),
});

export const ListRunsResponseSchema = z.looseObject({
  runs: z.array(RunItemSchema),
  page_info: PageInfoSchema,
});
export type ListRunsResponse = z.infer<typeof ListRunsResponseSchema>;

/**
 * A list page as it arrives: the envelope is checked here, each item on its own
 * (`parseRunItems`), so one item from anywhere in the team that is off the description
 * cannot reject the runs around it.
 */
export const ListRunsEnvelopeSchema = z.looseObject({
  runs: z.array(z.unknown()),
  page_info: PageInfoSchema,
});

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
export const FollowupResponseSchema = z.looseObject({
  followup_id: z.string().nullish(),
  outcome: z.string().nullish(),
});
export type FollowupResponse = z.infer<typeof FollowupResponseSchema>;

/** Cancel answers a JSON string: the run id. Tolerate an object too. */
export const CancelResponseSchema = z.union([z.string(), z.looseObject({})]);

export const FactorySchema = z.looseObject({
  uid: z.string().min(1),
  name: z.string(),
  alias: z.string().nullish(),
});
export type Factory = z.infer<typeof FactorySchema>;

/** Cursor-paginated like the run list; `page_info` may be absent on a single page. */
export const ListFactoriesResponseSchema = z.looseObject({
  factories: z.array(FactorySchema),
  page_info: z
    .looseObject({
      has_next_page: z.boolean().nullish(),
      next_cursor: z.string().nullish(),
    })
    .nullish(),
});

export interface DispatchRequest {
  prompt: string;
  title?: string;
  ticket_ref?: string;
  ticket_url?: string;
}
export const DispatchResponseSchema = z.looseObject({
  run_id: z.string().min(1),
  state: RunStateSchema,
  run_url: z.string().nullish(),
  /** The canonical `<source>:<id>` reference the run was stamped with. */
  ticket_ref: z.string().nullish(),
});
export type DispatchResponse = z.infer<typeof DispatchResponseSchema>;

/** application/problem+json body. Every member optional: we tolerate partial bodies. */
export const ProblemSchema = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().optional(),
  error: z.string().optional(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  retryable: z.boolean().optional(),
  trace_id: z.string().optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;
