/**
 * AmbientAgentConfig: the run's configuration, sent in a create and answered in a run's
 * `agent_config`, with the objects it nests.
 */
import { z } from 'zod';
import { Uri } from './common.js';

/** MCPServerConfig: exactly one of `warp_id`, `command` or `url`. */
export const MCPServerConfig = z
  .strictObject({
    warp_id: z.string().optional(),
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    url: Uri.optional(),
    env: z.record(z.string(), z.string()).optional(),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .refine(
    (s) => [s.warp_id, s.command, s.url].filter((v) => v !== undefined).length === 1,
    'exactly one of warp_id, command or url',
  );

export const Harness = z.strictObject({
  type: z.enum(['oz', 'claude', 'gemini', 'codex']).optional(),
  model_id: z.string().optional(),
  reasoning_level: z.string().optional(),
});

export const HarnessAuthSecrets = z.strictObject({
  claude_auth_secret_name: z.string().optional(),
  codex_auth_secret_name: z.string().optional(),
});

export const SessionSharingConfig = z.strictObject({
  public_access: z.enum(['VIEWER', 'EDITOR']).optional(),
});

export const MemoryStoreRef = z.strictObject({
  uid: z.string(),
  access: z.enum(['read_write', 'read_only']),
  instructions: z.string().min(1),
});

export const InferenceProvidersConfig = z.strictObject({
  aws: z
    .strictObject({ disabled: z.boolean().optional(), role_arn: z.string().optional() })
    .optional(),
});

export const AmbientAgentConfig = z.strictObject({
  name: z.string().optional(),
  model_id: z.string().optional(),
  base_prompt: z.string().optional(),
  environment_id: z.string().optional(),
  runner_id: z.string().optional(),
  skill_spec: z.string().optional(),
  skills: z.array(z.string()).optional(),
  mcp_servers: z.record(z.string(), MCPServerConfig).optional(),
  computer_use_enabled: z.boolean().optional(),
  computer_use_model_id: z.string().optional(),
  idle_timeout_minutes: z.number().int().min(1).max(60).optional(),
  worker_host: z.string().optional(),
  harness: Harness.optional(),
  harness_auth_secrets: HarnessAuthSecrets.optional(),
  session_sharing: SessionSharingConfig.optional(),
  memory_stores: z.array(MemoryStoreRef).optional(),
  inference_providers: InferenceProvidersConfig.optional(),
  credential_strategy: z.enum(['CREATOR', 'EXECUTOR']).nullable().optional(),
});

/** `skill_spec` and `skills` are mutually exclusive in a create. */
export const AmbientAgentConfigRequest = AmbientAgentConfig.refine(
  (c) => c.skill_spec === undefined || c.skills === undefined,
  'skill_spec and skills are mutually exclusive',
);
