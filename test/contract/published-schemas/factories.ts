/**
 * Factories, which the description does not cover: from the newest official SDK
 * (`factories.list`, `factories.get`, `factories.runs.create`). GET /factory is
 * cursor-paginated like the run list; POST /factory/{uid}/runs dispatches a run to the
 * factory's foreman.
 */
import { z } from 'zod';
import { Harness, HarnessAuthSecrets, MCPServerConfig } from './agent-config.js';
import { DateTime, RunState } from './common.js';

const CodeForge = z.enum(['GITHUB', 'GITLAB', 'AZURE_DEVOPS', 'NONE']);
const SecretRef = z.strictObject({ name: z.string() });

const Integration = z.strictObject({
  type: z.enum(['jira', 'linear', 'microsoft-teams', 'slack']),
  jira: z
    .strictObject({ project_keys: z.array(z.string()) })
    .nullable()
    .optional(),
  linear: z
    .strictObject({ team_ids: z.array(z.string()) })
    .nullable()
    .optional(),
  'microsoft-teams': z
    .strictObject({ auto_respond_to_thread_replies: z.boolean().nullable().optional() })
    .nullable()
    .optional(),
  slack: z
    .strictObject({ auto_respond_to_thread_replies: z.boolean().nullable().optional() })
    .nullable()
    .optional(),
});

export const Factory = z.strictObject({
  uid: z.string(),
  name: z.string(),
  alias: z.string().nullable(),
  avatar_url: z.string().nullable(),
  description: z.string().nullable(),
  team_uid: z.string(),
  created_at: DateTime,
  updated_at: DateTime,
  code_forge: CodeForge,
  code_forges: z.array(CodeForge),
  credential_strategy: z.enum(['CREATOR', 'EXECUTOR']),
  default_environment: z.string().nullable(),
  default_model: z.string().nullable(),
  integrations: z.array(Integration).nullable(),
  repositories: z.array(
    z.strictObject({
      owner: z.string(),
      repo: z.string(),
      code_forge: z.enum(['GITHUB', 'GITLAB', 'AZURE_DEVOPS']).optional(),
      provider_metadata: z.record(z.string(), z.string()).optional(),
    }),
  ),
  agent_defaults: z.strictObject({
    default_runner_uid: z.string(),
    mcp_servers: z.record(z.string(), MCPServerConfig),
    secrets: z.array(SecretRef),
    worker_host: z.string(),
    harness: Harness.optional(),
    harness_auth_secrets: HarnessAuthSecrets.optional(),
  }),
  scorer_defaults: z.strictObject({
    default_runner_uid: z.string().optional(),
    mcp_servers: z.record(z.string(), MCPServerConfig).optional(),
    secrets: z.array(SecretRef).optional(),
  }),
  scoring: z.strictObject({ default_model: z.string().nullable() }),
  creator: z.strictObject({ uid: z.string(), email: z.string().nullable().optional() }).optional(),
  self_improvement: z
    .strictObject({
      reviewer_type: z.enum(['none', 'admins', 'team', 'custom']),
      failed_run_threshold: z.number().int().min(1).max(50).optional(),
      reviewer_emails: z.array(z.string()).optional(),
    })
    .optional(),
});

export const ListFactoriesQuery = z.strictObject({
  cursor: z.string().min(1).optional(),
  limit: z.string().regex(/^\d+$/).optional(),
  search: z.string().optional(),
  filter_team_uid: z.string().optional(),
});

export const ListFactoriesResponse = z.strictObject({
  factories: z.array(Factory),
  page_info: z.strictObject({
    has_next_page: z.boolean().optional(),
    next_cursor: z.string().optional(),
  }),
});

/** `<source>:<id>`, e.g. `linear:REMOTE-123` or `github:owner/repo#12`. */
export const TicketRef = z.string().regex(/^[^:\s]+:\S+$/, '<source>:<id>');

export const DispatchFactoryRunRequest = z.strictObject({
  prompt: z.string().min(1),
  ticket_ref: TicketRef.optional(),
  ticket_url: z.string().optional(),
  title: z.string().optional(),
});

export const DispatchFactoryRunResponse = z.strictObject({
  factory_uid: z.string(),
  foreman_agent: z.string(),
  run_id: z.string(),
  state: RunState,
  ticket_ref: TicketRef,
  run_url: z.string().optional(),
});
