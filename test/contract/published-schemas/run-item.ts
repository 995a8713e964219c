/**
 * RunItem: the answer of GET /agent/runs/{runId} and each item of a list page, with its
 * artifacts and status message. The newest SDK makes `finished_at` (nullable) and
 * `root_run_id` required and adds pull-request `status`, `factory_uid`, `submitted_prompt`
 * and the debug-window fields; those are included as the SDK states them.
 */
import { z } from 'zod';
import { AmbientAgentConfig } from './agent-config.js';
import {
  AgentSkill,
  DateTime,
  PlatformErrorCode,
  RunCreatorInfo,
  RunExecutionLocation,
  RunMetadata,
  RunSourceType,
  RunState,
  ScheduleInfo,
  Scope,
  Uri,
} from './common.js';

const artifact = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.strictObject({ artifact_type: z.literal(type), created_at: DateTime, data });

export const PullRequestStatus = z.enum(['open', 'draft', 'merged', 'closed', 'unknown']);

export const PlanArtifact = artifact(
  'PLAN',
  z.strictObject({
    artifact_uid: z.string().optional(),
    document_uid: z.string(),
    notebook_uid: z.string().optional(),
    url: Uri.optional(),
    title: z.string().optional(),
  }),
);

export const PullRequestArtifact = artifact(
  'PULL_REQUEST',
  z.strictObject({ url: Uri, branch: z.string(), status: PullRequestStatus }),
);

export const ScreenshotArtifact = artifact(
  'SCREENSHOT',
  z.strictObject({
    artifact_uid: z.string(),
    mime_type: z.string(),
    description: z.string().optional(),
  }),
);

export const FileArtifact = artifact(
  'FILE',
  z.strictObject({
    artifact_uid: z.string(),
    filepath: z.string(),
    filename: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    mime_type: z.string(),
    size_bytes: z.number().int().optional(),
    thumbnail: z.strictObject({ download_url: z.string(), expires_at: DateTime }).optional(),
  }),
);

export const ExternalReferenceArtifact = artifact(
  'EXTERNAL_REFERENCE',
  z.strictObject({
    reference_type: z.string().max(256),
    url: z.string().max(2048),
    title: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
);

export const ArtifactItem = z.discriminatedUnion('artifact_type', [
  PlanArtifact,
  PullRequestArtifact,
  ScreenshotArtifact,
  FileArtifact,
  ExternalReferenceArtifact,
]);

export const RunStatusMessage = z.strictObject({
  message: z.string(),
  error_code: PlatformErrorCode.optional(),
  retryable: z.boolean().optional(),
  session_debug_until: DateTime.optional(),
  debug_agent_active: z.boolean().optional(),
});

/**
 * RequestUsage: every member optional and numeric at the top; its breakdowns are checked by
 * the schema of whoever reads them.
 */
export const RequestUsage = z.looseObject({
  inference_cost: z.number().optional(),
  compute_cost: z.number().optional(),
  platform_cost: z.number().optional(),
  total_tokens: z.number().int().optional(),
});

/** ISO 8601 duration as the service computes it (e.g. `PT2M30S`). */
export const Duration = z.iso.duration();

export const RunItem = z.strictObject({
  run_id: z.string(),
  task_id: z.string(),
  title: z.string(),
  state: RunState,
  execution_location: RunExecutionLocation.optional(),
  prompt: z.string(),
  submitted_prompt: z.string().optional(),
  created_at: DateTime,
  updated_at: DateTime,
  run_time: Duration.optional(),
  started_at: DateTime.nullable().optional(),
  finished_at: DateTime.nullable(),
  status_message: RunStatusMessage.optional(),
  source: RunSourceType.optional(),
  schedule: ScheduleInfo.optional(),
  session_id: z.string().optional(),
  session_link: Uri.optional(),
  trigger_url: Uri.optional(),
  creator: RunCreatorInfo.optional(),
  executor: RunCreatorInfo.optional(),
  request_usage: RequestUsage.optional(),
  agent_config: AmbientAgentConfig.optional(),
  conversation_id: z.string().optional(),
  parent_run_id: z.string().optional(),
  root_run_id: z.string(),
  factory_uid: z.string().optional(),
  metadata: RunMetadata.optional(),
  is_sandbox_running: z.boolean().optional(),
  is_run_type_cancellable: z.boolean().optional(),
  debug_agent_available: z.boolean().optional(),
  artifacts: z.array(ArtifactItem).optional(),
  agent_skill: AgentSkill.optional(),
  scope: Scope.optional(),
});
