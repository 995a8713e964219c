/**
 * Cancel (agent-api.md, "Cancel outcomes"): 409 while PENDING is retried a few times with
 * backoff before the person is asked to try again shortly; 400 says it already ended; 422
 * says it cannot be cancelled. Who may cancel is checked here, where the requester is known.
 */
import type { Trigger } from '../../core/trigger.js';
import { tenantOf } from '../../core/thread-key.js';
import type { RunRecord } from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import { notice } from '../../core/message/render-model.js';
import { resolveRunTarget } from './current-run.js';
import type { MayCancel, RunsDeps } from '../runs-deps.js';
import { refusedElsewhere } from './list-runs.js';
import { noSingleRun } from './show-status.js';
import { writeRunChecked } from './write-run.js';
import { enqueue, replyPrivately, type Effects, type TriggerJob } from './trigger-job.js';

/**
 * GitHub: the ingress already let only writers through. Slack and Teams: the requester, an admin of
 * agent-relay named by the operator, or an admin of the workspace the run was started in (the
 * ingress marks them; being allowed to use the bot is not enough, and a workspace's admin is
 * no admin of another workspace's runs).
 */
export function defaultMayCancel(): MayCancel {
  return (trigger: Trigger, run: RunRecord | undefined) => {
    // Slack and Teams let anyone allowed there press a button: only these may.
    if (trigger.platform !== 'slack' && trigger.platform !== 'teams') return true;
    if (trigger.actor.relayAdmin === true) return true;
    if (run === undefined) return false;
    if (trigger.actor.admin === true && tenantOf(run.threadKey) === tenantOf(trigger.threadKey))
      return true;
    return run.requester.id === trigger.actor.id;
  };
}

export type CancelResult = 'cancelled' | 'pending' | 'ended' | 'not_cancellable' | 'unknown';

export async function cancelWithRetries(deps: RunsDeps, runId: string): Promise<CancelResult> {
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

/**
 * The run named by id: the relay's record, or (with none) the metadata the service stamped on
 * it, which places it; a private "no such run" reply when the service has none either.
 */
export async function namedRun(
  deps: RunsDeps,
  job: TriggerJob,
  runId: string,
): Promise<
  | { record: RunRecord | undefined; stamped: { metadata?: Record<string, string> | null } }
  | { reply: Effects }
> {
  const record = await deps.store.runs.get(runId);
  const stamped = record ? {} : await stampOf(deps, runId);
  if (stamped !== undefined) return { record, stamped };
  return {
    reply: replyPrivately(
      job,
      notice('info', `The Agent Run Service has no run ${runId}. Check the id with \`list\`.`),
    ),
  };
}

/** The metadata of a run the relay has no record of; undefined when the service has none. */
async function stampOf(
  deps: RunsDeps,
  runId: string,
): Promise<{ metadata?: Record<string, string> | null } | undefined> {
  try {
    const item = await deps.agent.getRun(runId);
    return { metadata: item.metadata ?? null };
  } catch (err) {
    if (isServiceError(err) && err.code === 'not_found') return undefined;
    throw err;
  }
}

export async function cancelRun(
  deps: RunsDeps,
  job: TriggerJob,
  runIdArg?: string,
): Promise<Effects> {
  const target = await resolveRunTarget(deps, job, 'cancel', runIdArg);
  if (target.kind !== 'run') {
    return noSingleRun(deps, job, 'cancel', target, {
      threadless:
        'You have no live run in this channel to cancel. Name the run, or ask in its thread.',
      inThread: 'There is no run in this thread to cancel.',
    });
  }
  const { runId } = target;
  const found = await namedRun(deps, job, runId);
  if ('reply' in found) return found.reply;
  const { record, stamped } = found;
  const elsewhere = refusedElsewhere(deps, job, 'cancel', runId, stamped, record);
  if (elsewhere) return elsewhere;
  const named = record ? `“${record.title}”` : `run ${runId}`;
  if (!deps.mayCancel(job.trigger, record)) {
    job.log.info({ runId }, 'cancel refused: not the requester');
    return replyPrivately(
      job,
      notice(
        'warning',
        `Only the person who started ${named} can cancel it. Ask them, or someone allowed to cancel any run.`,
      ),
    );
  }
  const result = await cancelWithRetries(deps, runId);
  const texts: Record<Exclude<CancelResult, 'cancelled'>, string> = {
    pending: `${named} is still being set up and cannot be cancelled yet. Try again in a few seconds.`,
    ended: `${named} has already ended (or is waiting for input), so there is nothing to cancel. Reply in its thread to give it more work.`,
    not_cancellable: `${named} is of a kind that cannot be cancelled.`,
    unknown: `The Agent Run Service has no run ${runId}. Check the id with \`list\`.`,
  };
  if (result !== 'cancelled') {
    return replyPrivately(job, notice(result === 'pending' ? 'warning' : 'info', texts[result]));
  }
  deps.metrics.inc('cancels', { platform: job.trigger.platform });
  // The job's logger already names the thread the request came from: only the run's own
  // thread is added, and only when it is another one (no duplicate keys in a log line).
  const runThread = record?.threadKey;
  job.log.info(
    { runId, ...(runThread && runThread !== job.threadKey ? { runThreadKey: runThread } : {}) },
    'run cancel requested',
  );
  if (record) job.afterCommit.push(() => deps.nudgeTracker(runId));
  const { triggerMessage } = job.trigger;
  // Its own acknowledgement: 🛑 on the message that asked (Slack), otherwise a short answer.
  // The run's status message says when it has stopped.
  const confirm: Effects =
    triggerMessage && job.trigger.platform === 'slack' && job.trigger.kind !== 'cancel_button'
      ? enqueue({
          kind: 'react',
          destination: { threadKey: job.threadKey },
          target: triggerMessage,
          reaction: 'cancel_requested',
        })
      : replyPrivately(
          job,
          notice('info', `Cancelling ${named}. Its status message will say when it has stopped.`),
        );
  return async (tx, now) => {
    if (record) {
      await writeRunChecked(tx, runId, () => ({ tracked: true, nextCheckAt: now, updatedAt: now }));
    }
    await confirm(tx, now);
  };
}
