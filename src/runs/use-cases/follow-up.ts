/**
 * A message in a thread that has a run steers that run (docs/architecture.md: also after it ended: the
 * service continues the same conversation). Confirmed with an 'accepted' reaction, or a
 * short reply where there is no message to react to. The run's next ended/BLOCKED state is a
 * new episode, so its outcome is told again (also after a Stop: runs/session-work.ts).
 */
import type { FollowupRequest, RunItem } from '../../core/run.js';
import type { RunOptions } from '../../core/command/command.js';
import { isRunMode } from '../../core/command/run-modes.js';
import type { RunRecord } from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import { followupSentMessage, notice } from '../../core/message/render-model.js';
import { followupRouting, ROUTED_WORDS } from '../../core/message/followup-routing.js';
import {
  oursToTakeOff,
  reactionTarget,
  withOurReactions,
} from '../../core/message/our-reactions.js';
import { parseIsoDuration } from '../../core/message/duration.js';
import { stateView } from '../../core/message/state-view.js';
import { NOT_NOTIFIED } from '../run-changes.js';
import { viewOf } from '../../core/message/run-view.js';
import type { RunsDeps } from '../runs-deps.js';
import { turnStarted } from '../session-work.js';
import {
  enqueue,
  replyPrivately,
  replyWith,
  type Effects,
  type TriggerJob,
} from './trigger-job.js';
import { checkFollowupBudget } from './budget.js';
import { writeRunChecked } from './write-run.js';
import { debugSessionNotice, inDebugWindow } from './debug-window.js';

/**
 * A follow-up to an ended run starts a new execution. The service's run_time is cumulative
 * (every execution so far): it is kept as the time before the new execution, for when the
 * service stops reporting run_time and the view computes the current execution's own.
 */
async function currentItem(deps: RunsDeps, run: RunRecord): Promise<RunItem | undefined> {
  // The record may not have seen the latest state: the service says.
  try {
    return await deps.agent.getRun(run.runId);
  } catch {
    return undefined; // a courtesy (run time, the mode note); the follow-up matters more
  }
}

function endedExecutionMs(item: RunItem | undefined): number | undefined {
  if (!item || !stateView(item.state).ended || !item.run_time) return undefined;
  return parseIsoDuration(item.run_time);
}

/**
 * A mode is a property of a new execution: a message to a run that is still working goes
 * into the running agent as it is, so the person is told their `mode=` did not apply.
 */
function modeNote(mode: string, item: RunItem | undefined, run: RunRecord): string | undefined {
  const state = stateView(item?.state ?? run.state);
  if (!state.live) return undefined;
  return `Your message went to the run that is still working, which keeps its current mode: \`mode=${mode}\` applies only to a message that starts a new execution (after the run has ended). Send it again with \`mode=${mode}\` once the run is done, or start a new run with \`new mode=${mode} …\`.`;
}

/** How the agent is told who wrote a follow-up: `@name (id)` or `@id`. */
function speaker(job: TriggerJob): string {
  const { id, name } = job.trigger.actor;
  return name !== undefined && name !== id ? `@${name} (${id})` : `@${id}`;
}

export async function followUp(
  deps: RunsDeps,
  job: TriggerJob,
  run: RunRecord,
  input: {
    prompt: string;
    inline: RunOptions;
    /** Written with the run's record in the same transaction (an answered question). */
    patch?: Partial<Omit<RunRecord, 'runId'>>;
    /** The caller tells the thread itself (an approval): no confirmation of the message. */
    quiet?: boolean;
  },
): Promise<Effects> {
  // Under a budget a follow-up is work of unknown cost like a new run: the same rule.
  const overBudget = await checkFollowupBudget(deps, job, run);
  if (overBudget) return overBudget;
  // Someone other than the requester: the agent is told who speaks.
  const requester = job.trigger.actor.id === run.requester.id;
  const body: FollowupRequest = {
    message: requester ? input.prompt : `From ${speaker(job)}: ${input.prompt}`,
  };
  if (input.inline.mode && isRunMode(input.inline.mode)) body.mode = input.inline.mode;
  const item = await currentItem(deps, run);
  const ended = endedExecutionMs(item);
  const note = body.mode ? modeNote(body.mode, item, run) : undefined;
  let answer;
  try {
    answer = await deps.agent.sendFollowup(run.runId, body);
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
  job.log.info(
    {
      runId: run.runId,
      // Newer services say what became of it; older ones answer {}.
      ...(answer?.followup_id ? { followupId: answer.followup_id } : {}),
      ...(answer?.outcome ? { outcome: answer.outcome } : {}),
    },
    'follow-up sent',
  );
  const { trigger } = job;
  if (item && inDebugWindow(item, deps.clock.now())) {
    // The run stays FAILED as it was: nothing new to track, and its failure is not news.
    job.log.info({ runId: run.runId }, 'follow-up went to the debugging session');
    const accepted: Effects = trigger.triggerMessage
      ? enqueue({
          kind: 'react',
          destination: { threadKey: job.threadKey },
          target: trigger.triggerMessage,
          reaction: 'accepted',
        })
      : async () => {};
    const told = replyWith(job, debugSessionNotice(item));
    return async (tx, now) => {
      await accepted(tx, now);
      await told(tx, now);
    };
  }
  job.afterCommit.push(() => deps.nudgeTracker(run.runId));
  // Where it went, when the service said: the 👌 alone cannot tell it.
  const routed = followupRouting(answer?.outcome);
  const sentView = followupSentMessage(
    viewOf(run, { run_id: run.runId, title: run.title, state: run.state }, deps.clock.now()),
    input.prompt,
  );
  if (routed !== undefined) sentView.routed = routed;
  // The mode note already says where the message went: one line, not two.
  const tellRouted: Effects =
    routed === undefined || note !== undefined
      ? async () => {}
      : replyWith(job, notice('info', `Your message: ${ROUTED_WORDS[routed]}.`));
  const confirm: Effects = input.quiet
    ? async () => {}
    : trigger.triggerMessage
      ? async (tx, now) => {
          await enqueue({
            kind: 'react',
            destination: { threadKey: job.threadKey },
            target: trigger.triggerMessage!,
            reaction: 'accepted',
          })(tx, now);
          await tellRouted(tx, now);
        }
      : replyWith(job, sentView);
  // The run now shows its state on the new message: the earlier one loses what said the run
  // was seen or waiting (an earlier outcome there stays: it is still true of that episode).
  const earlier = run.triggerMessage;
  const moved =
    earlier !== undefined &&
    trigger.triggerMessage !== undefined &&
    earlier.id !== trigger.triggerMessage.id;
  // Only what the relay put there comes off (our-reactions.ts).
  const takeOff = moved ? oursToTakeOff(earlier, ['seen', 'accepted', 'blocked']) : [];
  const clearEarlier: Effects =
    moved && takeOff.length > 0
      ? enqueue({
          kind: 'react',
          destination: { threadKey: job.threadKey },
          target: reactionTarget(earlier),
          replaces: takeOff,
        })
      : async () => {};
  // The run's reactions now live on the follow-up's message: 👌 there when it has one.
  const triggerMessage = !trigger.triggerMessage
    ? undefined
    : earlier !== undefined && earlier.id === trigger.triggerMessage.id
      ? withOurReactions(earlier, [...(earlier.reactions ?? []), 'accepted'])
      : withOurReactions(trigger.triggerMessage, ['accepted']);
  const tellMode: Effects = note
    ? replyPrivately(job, notice('info', note, undefined, job.actor))
    : async () => {};
  return async (tx, now) => {
    const interval = deps.options.pollIntervalMs;
    // Decided from the record as it is now (the tracker may have recorded the previous
    // episode's end since this handling read it), written only if still so (write-run.ts).
    await writeRunChecked(tx, run.runId, () => ({
      tracked: true,
      nextCheckAt: now,
      checkIntervalMs: interval,
      notifiedState: NOT_NOTIFIED,
      ...(ended === undefined ? {} : { earlierRunMs: ended }),
      ...(triggerMessage ? { triggerMessage } : {}),
      ...input.patch,
      updatedAt: now,
    }));
    // A new turn: a Stop's answer no longer keeps the run's next question back.
    await turnStarted(tx, deps.capabilities, run, now);
    await clearEarlier(tx, now);
    await confirm(tx, now);
    await tellMode(tx, now);
  };
}
