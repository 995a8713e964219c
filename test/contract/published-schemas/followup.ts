/**
 * The answer of `POST /agent/runs/{runId}/followups` as the newest official SDK types it:
 * the follow-up's id and where the service routed it. (The description itself says only
 * "an object".)
 */
import { z } from 'zod';

export const PublishedFollowupOutcome = z.enum([
  'live_session',
  'queued_prompt',
  'handoff_execution',
  'queue_pending',
]);

export const PublishedFollowupResponse = z.object({
  followup_id: z.string(),
  outcome: PublishedFollowupOutcome,
});
