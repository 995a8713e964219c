/**
 * Building blocks of the published description shared by several endpoints: enums, the run
 * metadata rules, principals, scopes. Enums list exactly the published values; where the
 * newest SDK adds values the comment says so.
 */
import { z } from 'zod';

/** `format: date-time` (RFC 3339, with `Z` or an offset). */
export const DateTime = z.iso.datetime({ offset: true });
/** `format: uri`. */
export const Uri = z.url();

export const RUN_STATES = [
  'QUEUED',
  'PENDING',
  'CLAIMED',
  'INPROGRESS',
  'SUCCEEDED',
  'FAILED',
  'BLOCKED',
  'ERROR',
  'CANCELLED',
] as const;
export const RunState = z.enum(RUN_STATES);

/** RunSourceType: the description's values, then the ones the newest SDK adds. */
export const RunSourceType = z.enum([
  'LINEAR',
  'API',
  'SLACK',
  'LOCAL',
  'SCHEDULED_AGENT',
  'WEB_APP',
  'GITHUB_ACTION',
  'CLOUD_MODE',
  'CLI',
  'JIRA',
  'SELF_IMPROVEMENT',
  'GITHUB_WEBHOOK',
  'GITLAB_WEBHOOK',
  'AUTOFIX',
  'RUN_SCORER',
  'ORCHESTRATION',
  // SDK additions
  'TEAMS',
  'AZURE_DEVOPS_WEBHOOK',
  'BENCHMARK_TRIAL',
  'CREATE_BENCHMARK_TASK',
  'CUSTOM_WEBHOOK',
]);

export const RunExecutionLocation = z.enum(['LOCAL', 'REMOTE']);

export const AgentRunMode = z.enum(['normal', 'plan', 'orchestrate']);

/** PlatformErrorCode as the description lists it. */
export const PUBLISHED_ERROR_CODES = [
  'insufficient_credits',
  'feature_not_available',
  'external_authentication_required',
  'not_authorized',
  'invalid_request',
  'resource_not_found',
  'budget_exceeded',
  'integration_disabled',
  'integration_not_configured',
  'operation_not_supported',
  'environment_setup_failed',
  'content_policy_violation',
  'conflict',
  'authentication_required',
  'resource_unavailable',
  'internal_error',
] as const;
/** PlatformErrorCode: the description's list, then the two the newest SDK adds. */
export const PLATFORM_ERROR_CODES = [
  ...PUBLISHED_ERROR_CODES,
  'agent_stream_network_error',
  'agent_stream_failure',
] as const;
export const PlatformErrorCode = z.enum(PLATFORM_ERROR_CODES);

/**
 * RunMetadata: at most 20 keys of 1-64 bytes of [a-zA-Z0-9._-], values of 0-256 bytes of
 * UTF-8 without NUL.
 */
export const RunMetadata = z
  .record(
    z.string().regex(/^[a-zA-Z0-9._-]{1,64}$/),
    z
      .string()
      .refine((v) => Buffer.byteLength(v, 'utf8') <= 256, 'at most 256 bytes')
      .refine((v) => !v.includes('\0'), 'no NUL characters'),
  )
  .refine((m) => Object.keys(m).length <= 20, 'at most 20 keys');

/** RunCreatorInfo (the SDK's UserProfile): every member optional. */
export const RunCreatorInfo = z.strictObject({
  type: z.enum(['user', 'service_account']).optional(),
  uid: z.string().optional(),
  display_name: z.string().optional(),
  email: z.string().optional(),
  photo_url: Uri.optional(),
});

export const Scope = z.strictObject({
  type: z.enum(['User', 'Team']),
  uid: z.string().optional(),
});

export const AgentSkill = z.strictObject({
  name: z.string().optional(),
  description: z.string().optional(),
  full_path: z.string().optional(),
  bundled_skill_id: z.string().optional(),
});

export const ScheduleInfo = z.strictObject({
  schedule_id: z.string(),
  schedule_name: z.string(),
  cron_schedule: z.string(),
});

export const PageInfo = z.strictObject({
  has_next_page: z.boolean(),
  next_cursor: z.string().optional(),
});
