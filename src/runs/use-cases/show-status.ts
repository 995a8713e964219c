/** `status` / `status <run_id>`: the run's state, links and settings, as a reply. */
import { usageFor } from '../../core/command/help-text.js';
import { notice, runStatusMessage } from '../../core/message/render-model.js';
import { currentRunId } from './current-run.js';
import { viewOf } from '../../core/message/run-view.js';
import type { RunsDeps } from '../runs-deps.js';
import { replyWith, type Effects, type TriggerJob } from './trigger-job.js';

export async function showStatus(
  deps: RunsDeps,
  job: TriggerJob,
  runIdArg?: string,
): Promise<Effects> {
  const runId = runIdArg ?? (await currentRunId(deps, job.threadKey));
  if (!runId) {
    const invocation =
      job.trigger.platform === 'slack' ? deps.options.commandWord : `@${deps.options.botHandle}`;
    return replyWith(
      job,
      notice(
        'info',
        'There is no run in this thread yet.',
        usageFor('status', invocation),
        job.actor,
      ),
    );
  }
  const item = await deps.agent.getRun(runId);
  const record = await deps.store.runs.get(runId);
  return replyWith(job, runStatusMessage(viewOf(record, item, deps.clock.now())));
}
