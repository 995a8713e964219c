/**
 * Cancel (agent-api.md, "Cancel outcomes"): 409 while PENDING is retried a few times with
 * backoff before the person is asked to try again shortly; 400 says it already ended; 422
 * says it cannot be cancelled. Who may cancel is checked here, where the requester is known.
 */
import type { Trigger } from '../../core/trigger.js';
import type { RunRecord } from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import { notice } from '../../core/message/render-model.js';
import { usageFor } from '../../core/command/help-text.js';
import { currentRunId } from './current-run.js';
import type { MayCancel, RunsDeps } from '../runs-deps.js';
import { enqueue, replyWith, type Effects, type TriggerJob } from './trigger-job.js';

/**
 * GitHub: the ingress already let only writers through. Slack: the requester, or a user on
 * the allowlist of people who may cancel anyone's runs.
 */
export function defaultMayCancel(allowedUsers: readonly string[]): MayCancel {
  return (trigger: Trigger, run: RunRecord | undefined) => {
    if (trigger.platform !== 'slack') return true;
    if (allowedUsers.includes(trigger.actor.id)) return true;
    return run !== undefined && run.requester.id === trigger.actor.id;
  };
}

type CancelResult = 'cancelled' | 'pending' | 'ended' | 'not_cancellable' | 'unknown';

async function cancelWithRetries(deps: RunsDeps, runId: string): Promise<CancelResult> {
  const delays = deps.options.cancelRetryDelaysMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await deps.agent.cancelRun(runId, { maxRetries: 0 });
      return 'cancelled';
    } catch (err) {
      if (!isServiceError(err)) throw err;
      if (err.code === 'bad_request') return 'ended';
      if (err.code === 'unprocessable') return 'not_cancellable';
      if (err.code === 'not_found') return 'unknown';
      if (err.code !== 'conflict') throw err;
      const delay = delays[attempt];
      if (delay === undefined) return 'pending';
      await deps.sleep(delay);
    }
  }
}

export async function cancelRun(
  deps: RunsDeps,
  job: TriggerJob,
  runIdArg?: string,
): Promise<Effects> {
  const invocation =
    job.trigger.platform === 'slack' ? deps.options.commandWord : `@${deps.options.botHandle}`;
  const runId = runIdArg ?? (await currentRunId(deps, job.threadKey));
  if (!runId) {
    return replyWith(
      job,
      notice(
        'info',
        'There is no run in this thread to cancel.',
        usageFor('cancel', invocation),
        job.actor,
      ),
    );
  }
  const record = await deps.store.runs.get(runId);
  if (!deps.mayCancel(job.trigger, record)) {
    job.log.info({ runId }, 'cancel refused: not the requester');
    return replyWith(
      job,
      notice(
        'warning',
        `Only the person who started run ${runId} can cancel it.`,
        undefined,
        job.actor,
      ),
    );
  }
  const result = await cancelWithRetries(deps, runId);
  const texts: Record<Exclude<CancelResult, 'cancelled'>, string> = {
    pending: `Run ${runId} is still being set up (PENDING) and cannot be cancelled yet. Please try again in a few seconds.`,
    ended: `Run ${runId} has already ended (or is waiting for input), so there is nothing to cancel.`,
    not_cancellable: `Run ${runId} is of a kind that cannot be cancelled.`,
    unknown: `The Agent Run Service has no run ${runId}.`,
  };
  if (result !== 'cancelled') {
    return replyWith(
      job,
      notice(result === 'pending' ? 'warning' : 'info', texts[result], undefined, job.actor),
    );
  }
  deps.metrics.inc('cancels', { platform: job.trigger.platform });
  job.log.info({ runId }, 'run cancelled');
  if (record) job.afterCommit.push(() => deps.nudgeTracker(runId));
  const { triggerMessage } = job.trigger;
  const confirm: Effects =
    triggerMessage && job.trigger.kind !== 'cancel_button'
      ? enqueue({
          kind: 'react',
          destination: { threadKey: job.threadKey },
          target: triggerMessage,
          reaction: 'accepted',
        })
      : replyWith(job, notice('info', `Cancelling run ${runId}.`));
  return async (tx, now) => {
    if (record) {
      await tx.runs.update(runId, { tracked: true, nextCheckAt: now, updatedAt: now });
    }
    await confirm(tx, now);
  };
}
