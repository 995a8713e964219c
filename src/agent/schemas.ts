/**
 * The Agent Run Service contract (docs/agent-api.md) as zod schemas.
 *
 * Every byte the service sends passes one of these at the border. Objects are `looseObject`
 * so unknown fields pass through untouched; states and error codes are plain strings so a
 * future value is kept, not rejected.
 */
import { z } from 'zod';
import { RUN_MODES } from '../core/command/run-modes.js';
import type {
  AgentConfig,
  Artifact,
  ArtifactDetail,
  CreateRunRequest,
  CreateRunResponse,
  DispatchResponse,
  Factory,
  FollowupResponse,
  RequestUsage,
  RunItem,
  RunState,
} from '../core/run.js';

// The run's shape and states belong to the core (core/run.ts); the schemas below validate the
// service's answers into them, and the checks at the end keep the two in step at compile time.
export {
  ENDED_STATES,
  isBlockedState,
  isEndedState,
  isLiveState,
  KNOWN_STATES,
  LIVE_STATES,
  MAX_METADATA_FILTER_PAIRS,
} from '../core/run.js';
export type {
  AgentConfig,
  Artifact,
  ArtifactDetail,
  CreateRunRequest,
  CreateRunResponse,
  DispatchRequest,
  DispatchResponse,
  Factory,
  FollowupRequest,
  FollowupResponse,
  KnownRunState,
  ListRunsQuery,
  Metadata,
  RequestUsage,
  RunItem,
  RunState,
  RunUsage,
} from '../core/run.js';

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

export const METADATA_KEY_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const MetadataSchema = z
  .record(
    z.string().regex(METADATA_KEY_PATTERN),
    z.string().refine((v) => Buffer.byteLength(v, 'utf8') <= 256, 'at most 256 bytes'),
  )
  .refine((m) => Object.keys(m).length <= 20, 'at most 20 keys');

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

export const CreateRunResponseSchema = z.looseObject({
  run_id: z.string().min(1),
  state: RunStateSchema,
  task_id: z.string().optional(),
  at_capacity: z.boolean().optional(),
});

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
  /** A setup failure's debug window: when it closes (only while it is open). */
  session_debug_until: z.string().nullish(),
  /** A setup failure's debugging turn is running now. */
  debug_agent_active: z.boolean().nullish(),
});

export const ArtifactSchema = z.looseObject({
  artifact_type: z.string(), // PULL_REQUEST | PLAN | SCREENSHOT | FILE | EXTERNAL_REFERENCE | future
  created_at: z.string().optional(),
  data: z.record(z.string(), z.unknown()).default({}),
});

/** `GET /agent/artifacts/{uid}`: a plan's detail carries its current Markdown in `data`. */
export const ArtifactDetailSchema = z.looseObject({
  artifact_uid: z.string(),
  artifact_type: z.string(),
  created_at: z.string().optional(),
  data: z
    .looseObject({
      content: z.string().optional(),
      content_type: z.string().optional(),
      title: z.string().optional(),
      url: z.string().optional(),
      document_uid: z.string().optional(),
    })
    .default({}),
});

/** A usage figure: a field the service sends in another shape is dropped, not the run. */
const usageNumber = z.number().nullish().catch(undefined);

/**
 * `request_usage`: approximate dollar figures (`*_cost_usd`, or `*_cost_cents` from services
 * that report cents), credits (`*_cost`) and the token total; the breakdowns pass through.
 */
export const RequestUsageSchema = z.looseObject({
  inference_cost: usageNumber,
  compute_cost: usageNumber,
  platform_cost: usageNumber,
  inference_cost_usd: usageNumber,
  compute_cost_usd: usageNumber,
  platform_cost_usd: usageNumber,
  inference_cost_cents: usageNumber,
  compute_cost_cents: usageNumber,
  platform_cost_cents: usageNumber,
  total_tokens: usageNumber,
});

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
  request_usage: RequestUsageSchema.nullish().catch(undefined),
  task_id: z.string().nullish(),
  /** A setup failure whose session is still open for debugging (follow-ups go there). */
  debug_agent_available: z.boolean().nullish(),
});

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

/** `{followup_id, outcome}` from newer services; `{}` from older ones. */
export const FollowupResponseSchema = z.looseObject({
  followup_id: z.string().nullish(),
  outcome: z.string().nullish(),
});

/** Cancel answers a JSON string: the run id. Tolerate an object too. */
export const CancelResponseSchema = z.union([z.string(), z.looseObject({})]);

/** Interrupt answers 202; whatever body comes with it is tolerated and not relied on. */
export const InterruptResponseSchema = z.union([z.string(), z.looseObject({})]);

export const FactorySchema = z.looseObject({
  uid: z.string().min(1),
  name: z.string(),
  alias: z.string().nullish(),
});

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

export const DispatchResponseSchema = z.looseObject({
  run_id: z.string().min(1),
  state: RunStateSchema,
  run_url: z.string().nullish(),
  /** The canonical `<source>:<id>` reference the run was stamped with. */
  ticket_ref: z.string().nullish(),
});

/**
 * `GET /agent/environments`: only what the relay reads (uid, name, repositories) is required
 * beyond the published required members; everything else passes through.
 */
export const CloudEnvironmentSchema = z.looseObject({
  uid: z.string().min(1),
  config: z.looseObject({
    name: z.string().nullish(),
    github_repos: z.array(z.looseObject({ owner: z.string(), repo: z.string() })).nullish(),
  }),
  last_updated: z.string().nullish(),
  last_task_run_timestamp: z.string().nullish(),
  setup_failed: z.boolean().nullish(),
});
export type CloudEnvironment = z.infer<typeof CloudEnvironmentSchema>;

export const ListEnvironmentsResponseSchema = z.looseObject({
  environments: z.array(CloudEnvironmentSchema),
});

/** `GET /agent/models`. The provider and reasons stay strings: a new value is kept. */
export const ModelInfoSchema = z.looseObject({
  id: z.string().min(1),
  display_name: z.string().nullish(),
  provider: z.string().nullish(),
  vision_supported: z.boolean().nullish(),
  description: z.string().nullish(),
  reasoning_level: z.string().nullish(),
  disable_reason: z.string().nullish(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

export const ListModelsResponseSchema = z.looseObject({
  default_model_id: z.string().nullish(),
  models: z.array(ModelInfoSchema),
});
export type ListModelsResponse = z.infer<typeof ListModelsResponseSchema>;

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
  /** `external_authentication_required`: the provider to authorize (e.g. `linear`). */
  provider: z.string().optional(),
  /** `external_authentication_required`: the requester's personal link to authorize it. */
  auth_url: z.string().optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;

/** Compiles only when `Actual` is assignable to `Expected`. */
type Fits<Actual extends Expected, Expected> = [Actual, Expected];
// What the schemas accept is what the core expects from the service...
export type _SchemasFitCore = [
  Fits<z.output<typeof RunItemSchema>, RunItem>,
  Fits<z.output<typeof ArtifactSchema>, Artifact>,
  Fits<z.output<typeof ArtifactDetailSchema>, ArtifactDetail>,
  Fits<z.output<typeof AgentConfigSchema>, AgentConfig>,
  Fits<z.output<typeof CreateRunResponseSchema>, CreateRunResponse>,
  Fits<z.output<typeof DispatchResponseSchema>, DispatchResponse>,
  Fits<z.output<typeof FactorySchema>, Factory>,
  Fits<z.output<typeof FollowupResponseSchema>, FollowupResponse>,
  Fits<z.output<typeof RequestUsageSchema>, RequestUsage>,
  // ...and what the core sends is what the contract (and the emulator) accepts.
  Fits<CreateRunRequest, z.input<typeof CreateRunRequestSchema>>,
  Fits<RunItem, z.input<typeof RunItemSchema>>,
];
