/**
 * Stop (the `stop` command, the status message's Stop button, Slack's agent-session Stop):
 * interrupt the agent's current turn so the run waits for a reply; a run whose agent has not
 * started, that waits for input already, or whose kind cannot be interrupted is cancelled
 * instead, and so is every run of a service that has no interrupt endpoint (told apart from a
 * run the service does not know). Who may stop is who may cancel. On Slack the thread's agent session is moved off
 * `processing` at once (or put back, when the person may not stop the run). The line that
 * says what happened is a closing notice: Linear, whose sessions have turns, shows it as the
 * turn's final response.
 */
import type { SessionStatus } from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import { notice } from '../../core/message/render-model.js';
import { sessionStatusOf } from '../../core/message/session-status.js';
import { stateView } from '../../core/message/state-view.js';
import { usageFor } from '../../core/command/help-text.js';
import { resolveRunTarget } from './current-run.js';
import { cancelWithRetries, namedRun } from './cancel-run.js';
import { refusedElsewhere } from './list-runs.js';
import { steeringRefused } from './steering.js';
import type { RunsDeps } from '../runs-deps.js';
import { invocationFor } from './show-status.js';
import { writeRunChecked } from './write-run.js';
import { turnEnded } from '../session-work.js';
import { enqueue, inOrder, replyPrivately, type Effects, type TriggerJob } from './trigger-job.js';

const REQUESTER_STOP = (named: string) =>
  `Here only the person who started a run may stop it (\`config steer=requester\`), so ${named} goes on.`;

type Interrupted = 'interrupted' | 'cancel_instead' | 'no_interrupt' | 'unknown';

/**
 * A 404 from the interrupt: the run is unknown, or the service has no interrupt at all (it is
 * in the newest SDK, not in the published API description, and an unknown route is a 404
 * too, often with the same `resource_not_found` body). Without a problem body it is the
 * route; otherwise the run itself is asked for.
 */
async function notFoundMeans(
  deps: RunsDeps,
  runId: string,
  serviceCode: string | undefined,
): Promise<Interrupted> {
  if (serviceCode === undefined) return 'no_interrupt';
  try {
    await deps.agent.getRun(runId, { maxRetries: 0 });
    return 'no_interrupt';
  } catch (err) {
    if (isServiceError(err) && err.code === 'not_found') return 'unknown';
    throw err;
  }
}

async function interrupt(deps: RunsDeps, runId: string): Promise<Interrupted> {
  try {
    await deps.agent.interruptRun(runId, { maxRetries: 0 });
    return 'interrupted';
  } catch (err) {
    if (!isServiceError(err)) throw err;
    if (err.code === 'not_found') return notFoundMeans(deps, runId, err.serviceCode);
    // A service that knows the route but not this method for it.
    if (err.status === 405) return 'no_interrupt';
    // Not started yet (409), waiting for input or ended (400), not on the service's harness
    // (422): cancel says which of these it is.
    if (err.code === 'conflict' || err.code === 'bad_request' || err.code === 'unprocessable') {
      return 'cancel_instead';
    }
    throw err;
  }
}

/** Slack: set the thread's agent session (only Slack has sessions; elsewhere nothing). */
function session(job: TriggerJob, threadKey: string, status: SessionStatus): Effects {
  if (job.trigger.platform !== 'slack') return async () => {};
  return enqueue({ kind: 'session', destination: { threadKey }, session: status });
}

export async function stopRun(
  deps: RunsDeps,
  job: TriggerJob,
  runIdArg?: string,
): Promise<Effects> {
  const fromSession = job.trigger.kind === 'session_stopped';
  const target = await resolveRunTarget(deps, job, 'cancel', runIdArg);
  if (target.kind !== 'run') {
    const text =
      target.kind === 'choice'
        ? 'You have several live runs in this channel. Name the one to stop, or ask in its thread.'
        : target.threadless
          ? 'You have no live run in this channel to stop. Name the run, or ask in its thread.'
          : 'There is no run in this thread to stop.';
    const told = replyPrivately(
      job,
      notice('info', text, usageFor('stop', invocationFor(deps, job))),
    );
    return fromSession ? inOrder(told, session(job, job.threadKey, 'active')) : told;
  }
  const { runId } = target;
  const found = await namedRun(deps, job, runId);
  if ('reply' in found) return found.reply;
  const { record, stamped } = found;
  const threadKey = record?.threadKey ?? job.threadKey;
  const restore = record
    ? session(job, threadKey, sessionStatusOf(stateView(record.state)))
    : undefined;
  const elsewhere = refusedElsewhere(deps, job, 'stop', runId, stamped, record);
  if (elsewhere) return elsewhere;
  const named = record ? `“${record.title}”` : `run ${runId}`;
  if (!deps.mayCancel(job.trigger, record)) {
    job.log.info({ runId }, 'stop refused: not the requester');
    const told = replyPrivately(
      job,
      notice(
        'warning',
        `Only the person who started ${named} can stop it, so it goes on. Ask them, or someone allowed to cancel any run.`,
      ),
    );
    // Slack showed the session as stopping: it goes back to what the run is doing.
    return fromSession && restore ? inOrder(told, restore) : told;
  }
  // `config steer=requester` keeps a run to its requester: a Stop is steering too, on every
  // platform (Linear and GitHub let anyone allowed there cancel, so this is the line there).
  if (
    record &&
    job.trigger.actor.admin !== true &&
    (await steeringRefused(deps, job, record.requester.id))
  ) {
    job.log.info({ runId }, 'stop refused: steer=requester and not the requester');
    const told = replyPrivately(job, notice('warning', REQUESTER_STOP(named)));
    return fromSession && restore ? inOrder(told, restore) : told;
  }
  // Written before the answer is queued: the run's row, then its session's turn, which ends
  // here (no keep-alive follows the answer; session-keeper.ts).
  const tracked: Effects = async (tx, now) => {
    if (record) {
      await writeRunChecked(tx, runId, () => ({ tracked: true, nextCheckAt: now, updatedAt: now }));
      await turnEnded(tx, deps.capabilities, record, now);
    }
  };
  const inThread = (text: string): Effects =>
    enqueue({
      kind: 'post',
      destination: { threadKey },
      ...(record ? { runId } : {}),
      message: { ...notice('info', text, undefined, job.actor), closing: true },
    });
  const answer = await interrupt(deps, runId);
  if (answer === 'interrupted') {
    deps.metrics.inc('stops', { platform: job.trigger.platform, outcome: 'interrupted' });
    job.log.info({ runId }, 'run interrupted');
    if (record) job.afterCommit.push(() => deps.nudgeTracker(runId));
    return inOrder(
      session(job, threadKey, 'suspended'),
      tracked,
      inThread('stopped the agent. Reply in this thread to continue.'),
    );
  }
  if (answer === 'unknown') {
    return replyPrivately(
      job,
      notice('info', `The Agent Run Service has no run ${runId}. Check the id with \`list\`.`),
    );
  }
  const result = await cancelWithRetries(deps, runId);
  if (result === 'cancelled') {
    deps.metrics.inc('stops', { platform: job.trigger.platform, outcome: 'cancelled' });
    job.log.info(
      { runId, noInterrupt: answer === 'no_interrupt' },
      answer === 'no_interrupt'
        ? 'the service has no interrupt; cancel requested'
        : 'run could not be interrupted; cancel requested',
    );
    if (record) job.afterCommit.push(() => deps.nudgeTracker(runId));
    return inOrder(
      session(job, threadKey, 'closed'),
      tracked,
      inThread(
        answer === 'no_interrupt'
          ? 'stopped the run: this Agent Run Service cannot interrupt an agent, so the run was cancelled.'
          : 'stopped the run: it could not be interrupted (the agent had not started, or it was waiting for input), so it was cancelled.',
      ),
    );
  }
  const texts: Record<Exclude<typeof result, 'cancelled'>, string> = {
    pending: `${named} is still being set up and cannot be stopped yet. Try again in a few seconds.`,
    ended: `${named} has already ended, so there is nothing to stop. Reply in its thread to give it more work.`,
    not_cancellable: `${named} is of a kind that cannot be stopped.`,
    unknown: `The Agent Run Service has no run ${runId}. Check the id with \`list\`.`,
  };
  const told = replyPrivately(
    job,
    notice(result === 'pending' ? 'warning' : 'info', texts[result]),
  );
  if (!fromSession) return told;
  // The session shows what the run is doing: ended, or (not stopped after all) as it was.
  const status: SessionStatus | undefined =
    result === 'ended' ? (record?.state === 'CANCELLED' ? 'closed' : 'active') : undefined;
  return inOrder(told, status ? session(job, threadKey, status) : (restore ?? (async () => {})));
}
