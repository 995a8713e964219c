/** POST /agent/runs (createRun): RunAgentRequest and RunAgentResponse. */
import { z } from 'zod';
import { AmbientAgentConfigRequest } from './agent-config.js';
import { AgentRunMode, RunMetadata, RunState } from './common.js';

export const AttachmentInput = z.strictObject({
  file_name: z.string(),
  mime_type: z.string(),
  data: z.base64(),
});

/**
 * Either a prompt or a skill (`skill`, `config.skill_spec` or `config.skills`) is required,
 * except for a handoff that sets `conversation_id`.
 */
export const RunAgentRequest = z
  .strictObject({
    prompt: z.string().optional(),
    mode: AgentRunMode.optional(),
    skill: z.string().optional(),
    config: AmbientAgentConfigRequest.optional(),
    title: z.string().optional(),
    team: z.boolean().optional(),
    agent_identity_uid: z.string().optional(),
    on_behalf_of: z.string().optional(),
    conversation_id: z.string().optional(),
    attachments: z.array(AttachmentInput).max(5).optional(),
    parent_run_id: z.string().optional(),
    interactive: z.boolean().optional(),
    metadata: RunMetadata.optional(),
  })
  .refine(
    (r) =>
      r.prompt !== undefined ||
      r.skill !== undefined ||
      r.config?.skill_spec !== undefined ||
      r.config?.skills !== undefined ||
      r.conversation_id !== undefined,
    'prompt or a skill is required (or conversation_id for a handoff)',
  );

export const RunAgentResponse = z.strictObject({
  run_id: z.string(),
  task_id: z.string(),
  state: RunState,
  at_capacity: z.boolean().optional(),
});
