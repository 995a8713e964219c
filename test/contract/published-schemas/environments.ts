/**
 * `GET /agent/environments` as the published description has it (ListEnvironmentsResponse,
 * CloudEnvironment, CloudEnvironmentConfig, GitHubRepo, EnvironmentLastTask, Scope,
 * RunCreatorInfo), field for field, strict: an answer with a member the description does not
 * list, or without one it requires, fails.
 */
import { z } from 'zod';
import { DateTime, RunCreatorInfo, RunState, Scope } from './common.js';

export const PublishedGitHubRepo = z.strictObject({ owner: z.string(), repo: z.string() });

const GcpProviderConfig = z.looseObject({
  project_number: z.string(),
  workload_identity_federation_pool_id: z.string(),
  workload_identity_federation_provider_id: z.string(),
});
const AwsProviderConfig = z.looseObject({});

export const PublishedCloudEnvironmentConfig = z.strictObject({
  name: z.string().optional(),
  description: z.string().nullable().optional(),
  docker_image: z.string().optional(),
  github_repos: z.array(PublishedGitHubRepo).optional(),
  setup_commands: z.array(z.string()).optional(),
  providers: z
    .strictObject({ gcp: GcpProviderConfig.optional(), aws: AwsProviderConfig.optional() })
    .optional(),
  failure_session_retention_minutes: z.number().int().min(1).max(60).nullable().optional(),
});

export const PublishedEnvironmentLastTask = z.strictObject({
  id: z.string(),
  title: z.string(),
  state: RunState,
  created_at: DateTime,
  updated_at: DateTime,
  started_at: DateTime.nullable().optional(),
});

export const PublishedCloudEnvironment = z.strictObject({
  uid: z.string(),
  config: PublishedCloudEnvironmentConfig,
  last_updated: DateTime,
  last_task_run_timestamp: DateTime.nullable().optional(),
  last_task_created: PublishedEnvironmentLastTask.optional(),
  setup_failed: z.boolean(),
  scope: Scope.optional(),
  creator: RunCreatorInfo.optional(),
  last_editor: RunCreatorInfo.optional(),
});

export const PublishedListEnvironmentsResponse = z.strictObject({
  environments: z.array(PublishedCloudEnvironment),
});

/** The query it takes. */
export const PublishedListEnvironmentsSortBy = z.enum(['name', 'last_updated']);
