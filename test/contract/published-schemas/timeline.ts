/**
 * The published shape of `GET /agent/runs/{runId}/timeline` (GetRunTimelineResponse,
 * AIRunTimelineEvent, AIRunTimelineEventType), field for field.
 */
import { z } from 'zod';

export const PublishedTimelineEventType = z.enum([
  'oz_run_created',
  'oz_run_claimed',
  'worker_container_ready',
  'shared_session_started',
  'agent_started',
  'oz_run_done',
  'oz_run_blocked',
  'oz_run_cancelled',
  'oz_run_failed',
  'oz_run_errored',
  'vm_shutdown',
]);

export const PublishedTimelineEvent = z.object({
  event_uuid: z.string(),
  run_id: z.string(),
  execution_id: z.number().int().optional(),
  event_type: PublishedTimelineEventType,
  occurred_at: z.iso.datetime({ offset: true }),
  payload: z.record(z.string(), z.unknown()).optional(),
});

export const PublishedTimelineResponse = z.object({
  events: z.array(PublishedTimelineEvent),
});
