/**
 * Answers to a question about a run (docs/usage.md, "Plan first" and "A spending cap"):
 * approve its plan, ask for changes, cancel, see the whole plan; let a capped run go on, or
 * leave it stopped. Every answer is bound to the run and the version of the question it was
 * shown with: a stale or repeated one says so, privately, and does nothing. Who may answer is
 * the place's `approve` setting: the requester and admins (default), admins, or anyone.
 */
import type { ReviewAnswer } from '../../core/trigger.js';
import type { BlockedDescendantRecord, ReviewRecord, RunRecord } from '../../core/ports/index.js';
import { APPROVE_VALUES, type ApproveSetting } from '../../core/command/option-values.js';
import { notice } from '../../core/message/render-model.js';
import { viewOf } from '../../core/message/run-view.js';
import {
  APPROVED_ACTION_MESSAGE,
  APPROVED_PLAN_MESSAGE,
  CONTINUE_MESSAGE,
  REJECTED_ACTION_MESSAGE,
} from '../../core/message/review-text.js';
import { formatUsd } from '../../core/message/usage-text.js';
import type { RunOptions } from '../../core/command/command.js';
import { settingsScopeOf, tenantOf } from '../../core/thread-key.js';
import { planArtifactOf } from '../plan-review.js';
import { readPlan } from '../read-plan.js';
import type { RunsDeps } from '../runs-deps.js';
import { cancelRun } from './cancel-run.js';
import { currentRun } from './current-run.js';
import { loadDefaults } from './defaults.js';
import { followUp } from './follow-up.js';
import { capOf } from './spending-cap.js';
import { writeRunChecked } from './write-run.js';
import { enqueue, inOrder, replyPrivately, type Effects, type TriggerJob } from './trigger-job.js';

export interface ReviewRequest {
  answer: ReviewAnswer;
  /** The run named (a button's, or typed); else this thread's run. */
  runId?: string;
  /** The version the answer was shown with (a button); typed answers take the open one. */
  version?: number;
  /** `changes`: what to change. */
  text?: string;
}

/** The questions each answer answers. */
const KINDS_OF: Record<ReviewAnswer, readonly ReviewRecord['kind'][]> = {
  approve: ['plan', 'action'],
  changes: ['plan'],
  cancel: ['plan'],
  show: ['plan'],
  continue: ['cap'],
  stop: ['cap'],
  reject: ['action'],
};

export const NOTHING_WAITS =
  'Nothing here waits for an answer: no plan to approve, no run stopped at its cap.';

/** Why an answer does nothing, in words, or undefined when it applies. */
function staleness(
  review: ReviewRecord | undefined,
  request: ReviewRequest,
  named: string,
): string | undefined {
  const kinds = KINDS_OF[request.answer];
  const kind = review !== undefined && kinds.includes(review.kind) ? review.kind : kinds[0]!;
  if (review === undefined || !kinds.includes(review.kind)) {
    return kind === 'cap'
      ? `${named} is not stopped at its spending cap. Nothing was done.`
      : `${named} has nothing waiting for an approval. Nothing was done.`;
  }
  if (request.version !== undefined && request.version !== review.version) {
    return review.version > request.version && review.status === 'open'
      ? `That answer was for an earlier ${kind === 'plan' ? 'plan' : 'question'} of ${named}; a newer one is in the thread. Nothing was done.`
      : `That answer was for an earlier question of ${named}, already settled. Nothing was done.`;
  }
  if (review.status !== 'open') {
    const by = review.decidedBy === undefined ? '' : ` by ${review.decidedBy}`;
    return `That was already answered${by} (${review.status}). Nothing was done.`;
  }
  return undefined;
}

/** The place's `approve` setting (default: the requester, and admins). */
async function approveSetting(deps: RunsDeps, job: TriggerJob): Promise<ApproveSetting> {
  const value = (await loadDefaults(deps, job, job.trigger.settingsScope)).approve;
  return (APPROVE_VALUES as readonly string[]).includes(value ?? '')
    ? (value as ApproveSetting)
    : 'requester';
}

/** Whether the one who answers may: by the place's setting; an admin always may. */
export async function mayAnswer(
  deps: RunsDeps,
  job: TriggerJob,
  run: RunRecord,
): Promise<{ ok: true } | { ok: false; setting: ApproveSetting }> {
  const setting = await approveSetting(deps, job);
  if (setting === 'anyone') return { ok: true };
  if (setting === 'requester' && job.trigger.actor.id === run.requester.id) return { ok: true };
  if (job.trigger.actor.relayAdmin === true) return { ok: true };
  const sameTenant = tenantOf(run.threadKey) === tenantOf(job.threadKey);
  // An admin of the place, as the access check found them (the platform's own word).
  if (sameTenant && job.trigger.actor.admin === true) return { ok: true };
  return { ok: false, setting };
}

function refusal(setting: ApproveSetting): string {
  return setting === 'admins'
    ? 'Only an admin may answer for a run here (`config approve=admins`). Nothing was done.'
    : 'Only the person who started this run, or an admin, may answer for it here. Nothing was done.';
}

/** Tell the whole thread what was decided (the buttons' presser is named). */
function tellThread(job: TriggerJob, text: string): Effects {
  return enqueue({
    kind: 'post',
    destination: { threadKey: job.threadKey },
    message: notice('info', text, undefined, job.actor),
  });
}

export async function answerReview(
  deps: RunsDeps,
  job: TriggerJob,
  request: ReviewRequest,
): Promise<Effects> {
  const run = request.runId
    ? await deps.store.runs.get(request.runId)
    : await currentRun(deps, job.threadKey);
  if (run === undefined && request.runId !== undefined) {
    const child = await deps.store.blockedDescendants.get(request.runId);
    if (child !== undefined) return answerSubRun(deps, job, request, child);
  }
  // A run of another place is not answered from here (nor said to exist).
  if (run === undefined || settingsScopeOf(run.threadKey) !== job.trigger.settingsScope) {
    return replyPrivately(job, notice('info', NOTHING_WAITS));
  }
  const named = `“${run.title}”`;
  const stale = staleness(run.review, request, named);
  if (stale !== undefined) {
    job.log.info({ runId: run.runId, answer: request.answer }, 'stale answer ignored');
    return replyPrivately(job, notice('info', stale));
  }
  const review = run.review!;
  if (request.answer === 'show') return showPlan(deps, job, run, review);
  const answer = request.answer;
  const allowed = await mayAnswer(deps, job, run);
  if (!allowed.ok) {
    job.log.info({ runId: run.runId, answer: request.answer }, 'answer refused: not allowed');
    return replyPrivately(job, notice('warning', refusal(allowed.setting)));
  }
  const decidedBy = job.trigger.actor.name ?? job.trigger.actor.id;
  const settle = (status: ReviewRecord['status']): ReviewRecord => ({
    ...review,
    status,
    decidedBy,
  });
  job.log.info(
    { runId: run.runId, answer: request.answer, version: review.version },
    'question answered',
  );
  /** The answer goes to the agent as a follow-up settling the question; the thread is told. */
  const goOn = async (
    prompt: string,
    inline: RunOptions,
    patch: Partial<Omit<RunRecord, 'runId'>>,
    told: string,
  ): Promise<Effects> =>
    inOrder(
      await followUp(deps, job, run, { prompt, inline, patch, quiet: true }),
      tellThread(job, told),
    );
  /** The question is settled, where it is still the one asked; the agent is sent nothing. */
  const settleOnly =
    (status: ReviewRecord['status']): Effects =>
    async (tx) => {
      await writeRunChecked(tx, run.runId, (current) =>
        current.review?.version === review.version ? { review: settle(status) } : {},
      );
    };
  switch (answer) {
    case 'reject':
      return goOn(
        REJECTED_ACTION_MESSAGE,
        {},
        { review: settle('rejected') },
        'did not approve it; the agent was asked to find another way.',
      );
    case 'approve':
      if (review.kind === 'action')
        return goOn(
          APPROVED_ACTION_MESSAGE,
          {},
          { review: settle('approved') },
          'approved it; the agent goes ahead.',
        );
      return goOn(
        APPROVED_PLAN_MESSAGE,
        { mode: 'normal' },
        { review: settle('approved') },
        'approved the plan; the agent is carrying it out.',
      );
    case 'changes': {
      const text = request.text?.trim() ?? '';
      return goOn(
        text,
        { mode: 'plan' },
        { review: settle('changes') },
        `asked for changes to the plan: ${text}`,
      );
    }
    case 'cancel':
      return inOrder(settleOnly('cancelled'), await cancelRun(deps, job, run.runId));
    case 'continue': {
      const step = capOf(run) ?? 0;
      const limit = (run.capUsd ?? 0) + step;
      return goOn(
        CONTINUE_MESSAGE,
        {},
        { review: settle('continued'), capUsd: limit },
        `let the run go on, up to ${formatUsd(limit)}.`,
      );
    }
    case 'stop':
      return inOrder(settleOnly('stopped'), tellThread(job, 'left the run stopped at its cap.'));
  }
}

/** The whole plan, to the one who asked (privately where the platform can). */
async function showPlan(
  deps: RunsDeps,
  job: TriggerJob,
  run: RunRecord,
  review: ReviewRecord,
): Promise<Effects> {
  const item = await deps.agent.getRun(run.runId);
  const artifact = planArtifactOf(item);
  if (artifact === undefined) return replyPrivately(job, notice('info', NOTHING_WAITS));
  const plan = await readPlan(deps.agent, artifact, job.log);
  const view = viewOf(run, item, deps.clock.now());
  return replyPrivately(job, {
    type: 'review',
    run: view,
    review: { kind: 'plan', version: review.version, plan },
    full: true,
  });
}

/**
 * An answer to a sub-run a tracked run started (an orchestration child waiting for approval):
 * Approve / Reject go to the sub-run itself, by its id, bound to its BLOCKED episode; who may
 * answer is decided as for the run that started it, in that run's place.
 */
async function answerSubRun(
  deps: RunsDeps,
  job: TriggerJob,
  request: ReviewRequest,
  child: BlockedDescendantRecord,
): Promise<Effects> {
  const parent = await deps.store.runs.get(child.ancestorRunId);
  if (parent === undefined || settingsScopeOf(parent.threadKey) !== job.trigger.settingsScope) {
    return replyPrivately(job, notice('info', NOTHING_WAITS));
  }
  const review: ReviewRecord = {
    kind: 'action',
    version: child.version,
    status: !child.blocked
      ? 'closed'
      : child.status === 'approved' || child.status === 'rejected'
        ? child.status
        : 'open',
    ...(child.decidedBy === undefined ? {} : { decidedBy: child.decidedBy }),
  };
  const stale = staleness(review, request, 'The sub-run');
  if (stale !== undefined) {
    job.log.info({ runId: child.runId, answer: request.answer }, 'stale answer ignored');
    return replyPrivately(job, notice('info', stale));
  }
  const allowed = await mayAnswer(deps, job, parent);
  if (!allowed.ok) {
    job.log.info({ runId: child.runId, answer: request.answer }, 'answer refused: not allowed');
    return replyPrivately(job, notice('warning', refusal(allowed.setting)));
  }
  const approve = request.answer === 'approve';
  const decidedBy = job.trigger.actor.name ?? job.trigger.actor.id;
  await deps.agent.sendFollowup(child.runId, {
    message: approve ? APPROVED_ACTION_MESSAGE : REJECTED_ACTION_MESSAGE,
  });
  job.log.info(
    { runId: child.runId, parentRunId: parent.runId, answer: request.answer },
    'sub-run question answered',
  );
  return inOrder(
    async () => {
      await deps.store.blockedDescendants.answer(
        child.runId,
        child.version,
        approve ? 'approved' : 'rejected',
        decidedBy,
      );
    },
    tellThread(
      job,
      approve
        ? 'approved the sub-run; it goes ahead.'
        : 'did not approve the sub-run; it was asked to find another way.',
    ),
  );
}
