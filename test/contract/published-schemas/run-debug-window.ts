/**
 * The published fields of a run that failed during environment setup and keeps its session
 * open for debugging: `RunItem.debug_agent_available` and `RunStatusMessage`'s
 * `session_debug_until` and `debug_agent_active` (with the message and code they sit beside).
 */
import { z } from 'zod';
import { RunState } from './common.js';
import { PublishedErrorCode } from './problem-error.js';

export const PublishedRunStatusMessage = z.object({
  message: z.string(),
  error_code: PublishedErrorCode.optional(),
  retryable: z.boolean().optional(),
  session_debug_until: z.iso.datetime({ offset: true }).optional(),
  debug_agent_active: z.boolean().optional(),
});

/** Only the members of a RunItem that the debug window concerns. */
export const PublishedRunDebugFields = z.object({
  run_id: z.string(),
  state: RunState,
  status_message: PublishedRunStatusMessage.optional(),
  debug_agent_available: z.boolean().optional(),
  parent_run_id: z.string().optional(),
  root_run_id: z.string().optional(),
});
