/**
 * A message in a thread that has a run steers that run (docs/architecture.md: also after it ended: the
 * service continues the same conversation). Confirmed with an 'accepted' reaction, or a
 * short reply where there is no message to react to. The run's next ended/BLOCKED state is a
 * new episode, so its outcome is told again.
 */
import type { FollowupRequest } from '../../agent/schemas.js';
import type { RunOptions } from '../../core/command/command.js';
import { isRunMode } from '../../core/command/run-modes.js';
import type { RunRecord } from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import { followupSentMessage, notice } from '../../core/message/render-model.js';
import { parseIsoDuration } from '../../core/message/duration.js';
import { stateView } from '../../core/message/state-view.js';
import { NOT_NOTIFIED } from '../tracker/detect-changes.js';
import { viewOf } from '../../core/message/run-view.js';
import type { RunsDeps } from '../runs-deps.js';
import { enqueue, replyWith, type Effects, type TriggerJob } from './trigger-job.js';
import { writeRunChecked } from './write-run.js';

/**
 * A follow-up to an ended run starts a new execution, whose run_time starts again: the one
 * that ended is kept (added to the earlier ones) for the run time over all executions.
 */
async function endedExecutionMs(deps: RunsDeps, run: RunRecord): Promise<number | undefined> {
  // The record may not have seen the end yet: the service says.
  try {
    const item = await deps.agent.getRun(run.runId);
    if (!stateView(item.state).ended || !item.run_time) return undefined;
    return parseIsoDuration(item.run_time);
  } catch {
    return undefined; // the total is a courtesy; the follow-up matters more
  }
}

export async function followUp(
  deps: RunsDeps,
  job: TriggerJob,
  run: RunRecord,
  input: { prompt: string; inline: RunOptions },
): Promise<Effects> {
  const body: FollowupRequest = { message: input.prompt };
  if (input.inline.mode && isRunMode(input.inline.mode)) body.mode = input.inline.mode;
  const ended = await endedExecutionMs(deps, run);
  try {
    await deps.agent.sendFollowup(run.runId, body);
  } catch (err) {
    // A follow-up cannot be reconciled: sending it again might deliver it twice.
    if (!isServiceError(err) || !err.outcomeUnknown) throw err;
    job.log.warn({ err, runId: run.runId }, 'follow-up outcome unknown');
    return replyWith(
      job,
      notice(
        'warning',
        `The Agent Run Service did not confirm your message to run ${run.runId}; it may or may not have arrived. Check the run's status before sending it again.`,
        undefined,
        job.actor,
      ),
    );
  }
  deps.metrics.inc('followups_sent', { platform: job.trigger.platform });
  job.log.info({ runId: run.runId }, 'follow-up sent');
  job.afterCommit.push(() => deps.nudgeTracker(run.runId));
  const { trigger } = job;
  const confirm: Effects = trigger.triggerMessage
    ? enqueue({
        kind: 'react',
        destination: { threadKey: job.threadKey },
        target: trigger.triggerMessage,
        reaction: 'accepted',
      })
    : replyWith(
        job,
        followupSentMessage(
          viewOf(run, { run_id: run.runId, title: run.title, state: run.state }, deps.clock.now()),
          input.prompt,
        ),
      );
  // The run now shows its state on the new message: the earlier one loses what said the run
  // was seen or waiting (an earlier outcome there stays: it is still true of that episode).
  const earlier = run.triggerMessage;
  const moved =
    earlier !== undefined &&
    trigger.triggerMessage !== undefined &&
    earlier.id !== trigger.triggerMessage.id;
  const clearEarlier: Effects = moved
    ? enqueue({
        kind: 'react',
        destination: { threadKey: job.threadKey },
        target: earlier,
        replaces: ['seen', 'accepted', 'blocked'],
      })
    : async () => {};
  return async (tx, now) => {
    const interval = deps.options.pollIntervalMs;
    // Decided from the record as it is now (the tracker may have recorded the previous
    // episode's end since this handling read it), written only if still so (write-run.ts).
    await writeRunChecked(tx, run.runId, (current) => ({
      tracked: true,
      nextCheckAt: now,
      checkIntervalMs: interval,
      notifiedState: NOT_NOTIFIED,
      ...(ended === undefined ? {} : { earlierRunMs: (current.earlierRunMs ?? 0) + ended }),
      ...(trigger.triggerMessage ? { triggerMessage: trigger.triggerMessage } : {}),
      updatedAt: now,
    }));
    await clearEarlier(tx, now);
    await confirm(tx, now);
  };
}
