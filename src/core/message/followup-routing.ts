/**
 * Where a follow-up went, from the service's answer (`outcome`, newer services): into the
 * running agent, queued behind what runs now, or a new execution of a run that had ended.
 * An outcome the relay does not know, or none, says nothing (older services answer `{}`).
 */
import type { FollowupRouting } from './message-model.js';

const ROUTING_BY_OUTCOME: Record<string, FollowupRouting> = {
  live_session: 'delivered',
  queued_prompt: 'queued',
  queue_pending: 'queued',
  handoff_execution: 'resumed',
};

export function followupRouting(outcome: string | null | undefined): FollowupRouting | undefined {
  return outcome ? ROUTING_BY_OUTCOME[outcome] : undefined;
}

/** The words each platform shows. */
export const ROUTED_WORDS: Record<FollowupRouting, string> = {
  delivered: 'delivered to the running agent',
  queued: 'queued, it will run next',
  resumed: 'resumed the run',
};
