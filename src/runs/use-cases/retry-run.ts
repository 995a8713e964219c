/**
 * "Re-run" on a run's GitHub check run: try that run again, as a follow-up to it ("Try
 * again."), so its thread, session and check run stay the same. Never a second run: while
 * the run is still live (or waiting for input) nothing is sent and the person is told so.
 * Trying again steers the run, so `config steer=requester` keeps it to the requester. A
 * Re-run of a check run that is not the relay's (another App's, or naming a run of another
 * place) is ignored without a word.
 */
import { notice } from '../../core/message/render-model.js';
import { stateView } from '../../core/message/state-view.js';
import { settingsScopeOf } from '../../core/thread-key.js';
import type { RunsDeps } from '../runs-deps.js';
import { followUp } from './follow-up.js';
import { REQUESTER_ONLY, steeringRefused } from './steering.js';
import { replyPrivately, replyWith, type Effects, type TriggerJob } from './trigger-job.js';

/** The words the agent gets when someone re-runs its check run. */
export const TRY_AGAIN = 'Try again.';

export async function retryRun(
  deps: RunsDeps,
  job: TriggerJob,
  runId: string | undefined,
): Promise<Effects> {
  const record = runId === undefined ? undefined : await deps.store.runs.get(runId);
  // A check run that is not one of ours (another App's, whose id means nothing here), or one
  // naming a run of another place: not ours to answer, so nothing is said.
  if (record === undefined) {
    job.log.info({ runId }, 're-run ignored: no such run of ours');
    return async () => {};
  }
  if (settingsScopeOf(record.threadKey) !== job.trigger.settingsScope) {
    job.log.info({ runId }, 're-run ignored: the run belongs to another place');
    return async () => {};
  }
  const state = stateView(record.state);
  if (!state.ended) {
    job.log.info({ runId, state: record.state }, 're-run ignored: the run is not over');
    return replyWith(
      job,
      notice(
        'info',
        state.blocked
          ? `“${record.title}” is waiting for an answer: reply to it here instead of re-running it.`
          : `“${record.title}” is still running; there is nothing to re-run yet.`,
        undefined,
        job.actor,
      ),
    );
  }
  if (await steeringRefused(deps, job, record.requester.id)) {
    job.log.info({ runId }, 're-run refused: only the requester may steer runs here');
    return replyPrivately(job, notice('info', REQUESTER_ONLY, undefined, job.actor));
  }
  return followUp(deps, job, record, { prompt: TRY_AGAIN, inline: {} });
}
