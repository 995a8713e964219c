/**
 * `status` / `status <run_id>`: look at the run now and bring its one status message up to
 * date (the same observation the tracker makes, so the outcome reply and reactions follow
 * if it just ended), then answer the asker briefly. A second copy of the status message
 * would go stale the moment the run moves on, so none is posted.
 */
import { usageFor } from '../../core/command/help-text.js';
import { notice, runBriefMessage, runChoiceMessage } from '../../core/message/render-model.js';
import { viewOf } from '../../core/message/run-view.js';
import { logStateChange, observeRun } from '../run-changes.js';
import { commitRunChange } from '../session-work.js';
import { handleOn, type RunsDeps } from '../runs-deps.js';
import { resolveRunTarget, type RunTarget } from './current-run.js';
import { refusedElsewhere } from './list-runs.js';
import { replyPrivately, type Effects, type TriggerJob } from './trigger-job.js';

export function invocationFor(deps: RunsDeps, job: TriggerJob): string {
  const { platform } = job.trigger;
  return platform === 'slack' ? deps.options.commandWord : `@${handleOn(deps.options, platform)}`;
}

/**
 * `status` or `cancel` with no one run to act on: the asker is offered their live runs here to
 * choose from, or told there is none (`none`: the words without a thread, and in one).
 */
export function noSingleRun(
  deps: RunsDeps,
  job: TriggerJob,
  command: 'status' | 'cancel',
  target: Exclude<RunTarget, { kind: 'run' }>,
  none: { threadless: string; inThread: string },
): Effects {
  if (target.kind === 'choice') {
    const now = deps.clock.now();
    const views = target.runs.map((run) =>
      viewOf(run, { run_id: run.runId, title: run.title, state: run.state }, now),
    );
    return replyPrivately(job, runChoiceMessage(command, views));
  }
  const text = target.threadless ? none.threadless : none.inThread;
  return replyPrivately(job, notice('info', text, usageFor(command, invocationFor(deps, job))));
}

export async function showStatus(
  deps: RunsDeps,
  job: TriggerJob,
  runIdArg?: string,
): Promise<Effects> {
  const target = await resolveRunTarget(deps, job, 'status', runIdArg);
  if (target.kind !== 'run') {
    return noSingleRun(deps, job, 'status', target, {
      threadless: 'You have no live run in this channel. Name the run, or ask in its thread.',
      inThread: 'There is no run in this thread yet.',
    });
  }
  const now = deps.clock.now();
  const item = await deps.agent.getRun(target.runId);
  const record = await deps.store.runs.get(target.runId);
  // What another place started is not shown here (see list-runs.ts).
  const elsewhere = refusedElsewhere(deps, job, 'status', target.runId, item, record);
  if (elsewhere) return elsewhere;
  const brief = replyPrivately(
    job,
    runBriefMessage(viewOf(record, item, now), record ? (record.statusMessage ?? {}) : undefined),
  );
  if (!record) return brief;
  // Someone looked: its progress is brought up to date first (and shown again after this
  // edit, which does not carry it).
  job.afterCommit.push(() => deps.nudgeTracker(target.runId));
  return async (tx, at) => {
    const current = await tx.runs.get(target.runId);
    if (current) {
      const observation = observeRun({
        record: current,
        item,
        now: at,
        intervals: {
          baseMs: deps.options.pollIntervalMs,
          maxMs: deps.options.maxCheckIntervalMs,
          blockedMs: deps.options.blockedCheckIntervalMs,
        },
      });
      // A compare-and-set, as the tracker writes: when a tracker (here or on another replica)
      // recorded the change first, this one queues nothing and the change is told once.
      if (
        observation.changed &&
        (await tx.runs.compareAndUpdate(target.runId, current, observation.patch))
      ) {
        logStateChange(job.log, current, item.state, at);
        await commitRunChange(tx, deps.capabilities, current, observation, at);
      }
    }
    await brief(tx, at);
  };
}
