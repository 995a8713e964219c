/**
 * The run actions the relay takes: cancel (answered with the run id as a JSON string) and the
 * follow-up request (RunFollowupRequest; `attachments` per the newest SDK). The follow-up's
 * answer has its own file.
 */
import { z } from 'zod';
import { AgentRunMode } from './common.js';

export const CancelRunResponse = z.string().min(1);

export const RunFollowupRequest = z.strictObject({
  message: z.string().optional(),
  mode: AgentRunMode.optional(),
  attachments: z
    .array(z.strictObject({ attachment_id: z.string(), file_name: z.string().optional() }))
    .max(25)
    .optional(),
});
