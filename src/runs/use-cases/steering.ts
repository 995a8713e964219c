/**
 * `config steer=requester`: in a place that set it, only the person who started a run may
 * steer it (a follow-up, an answer, trying it again); anyone else is told so, privately.
 */
import { loadDefaults } from './defaults.js';
import type { RunsDeps } from '../runs-deps.js';
import type { TriggerJob } from './trigger-job.js';

export const REQUESTER_ONLY =
  'Here only the person who started a run may follow up on it (`config steer=requester`). ' +
  'Start your own with `new …`.';

/** Whether the one who asks may not steer a run `requester` started. */
export async function steeringRefused(
  deps: RunsDeps,
  job: TriggerJob,
  requester: string,
): Promise<boolean> {
  if (job.trigger.actor.id === requester) return false;
  const settings = await loadDefaults(deps, job, job.trigger.settingsScope);
  return settings.steer === 'requester';
}
