/**
 * A run's state as a platform's agent session shows it (Slack agent sessions): the agent
 * working (`processing`, also while the run waits for a machine or starts), waiting for input
 * (`suspended`: BLOCKED, or interrupted by Stop), ended with the conversation still open to a
 * reply (`active`), or cancelled (`closed`).
 */
import type { SessionStatus } from '../ports/store-records.js';
import type { StateView } from './message-model.js';

export function sessionStatusOf(
  state: Pick<StateView, 'name' | 'blocked' | 'ended'>,
): SessionStatus {
  if (state.blocked) return 'suspended';
  if (!state.ended) return 'processing';
  return state.name === 'CANCELLED' ? 'closed' : 'active';
}
