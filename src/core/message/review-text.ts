/**
 * The words of a question about a run (its plan, its spending cap) that every platform says
 * alike, and how much of a plan is shown before "the whole plan" (Slack collapses the rest
 * behind a button; platforms without one show it all).
 */
import type { ReviewView } from './message-model.js';
import { costInWords, formatUsd } from './usage-text.js';

/** Lines of a plan shown before the rest is a click away. */
export const PLAN_PREVIEW_LINES = 12;

/** The largest plan the relay shows (the rest is at the plan's link). */
export const MAX_PLAN_CHARS = 12_000;

/** The first lines of a plan, and whether there is more. Never cuts inside a code fence. */
export function planPreview(
  markdown: string,
  lines = PLAN_PREVIEW_LINES,
): { shown: string; more: boolean } {
  const all = markdown.trim().split(/\r\n|\r|\n/);
  if (all.length <= lines) return { shown: all.join('\n'), more: false };
  let cut = lines;
  const fences = all.slice(0, cut).filter((l) => /^\s*(```|~~~)/.test(l)).length;
  if (fences % 2 === 1) {
    // Inside a fence: end before it opened.
    const open = all.slice(0, cut).findLastIndex((l) => /^\s*(```|~~~)/.test(l));
    cut = Math.max(1, open);
  }
  return { shown: all.slice(0, cut).join('\n'), more: true };
}

/** The headline of a question: "The plan is ready for review", "Stopped at its spending cap". */
export function reviewHeadline(review: ReviewView): string {
  if (review.kind === 'plan') {
    return review.version > 1
      ? 'The revised plan is ready for review'
      : 'The plan is ready for review';
  }
  if (review.kind === 'action' && review.subRun !== undefined)
    return 'A sub-run this run started is waiting for approval';
  if (review.kind === 'action') return 'Waiting for your approval';
  return 'Stopped at its spending cap';
}

/** What a capped run did and what Continue means, in one sentence. */
export function capWords(review: ReviewView): string {
  const cap = review.cap;
  if (cap === undefined) return '';
  const spent = cap.spentUsd === undefined ? '' : ` (it has used ${costInWords(cap.spentUsd)})`;
  return (
    `The run reached its cap of ${formatUsd(cap.limitUsd)}${spent}, so the agent was stopped. ` +
    `Continue lets it go on for another ${formatUsd(cap.stepUsd)}; without an answer it stays stopped.`
  );
}

/** The answers as typed words, for a platform with no buttons (or as well as them). */
export function typedAnswers(review: ReviewView, invocation: string): string {
  const say = (words: string) => `\`${invocation === '' ? '' : `${invocation} `}${words}\``;
  if (review.kind === 'plan') {
    return (
      `Reply ${say('approve')} to have the agent carry it out, ` +
      `${say('changes <what to change>')} (or any reply with what to change) for a revised plan, ` +
      `or ${say('cancel')}.`
    );
  }
  if (review.kind === 'action' && review.subRun !== undefined) {
    // The thread's run is the parent: the answer names the sub-run.
    return `Reply ${say(`approve ${review.subRun.runId}`)} to let it go ahead, or answer it in its session.`;
  }
  if (review.kind === 'action') {
    return `Reply ${say('approve')} to let it go ahead, or reply with what it should do instead.`;
  }
  // Not `stop`: on a waiting run that command cancels it. No answer leaves it stopped.
  return `Reply ${say('continue')} to let it go on; without an answer it stays stopped.`;
}

/** The button labels (the same words on every platform that has buttons). */
export function continueLabel(review: ReviewView): string {
  return `Continue for another ${formatUsd(review.cap?.stepUsd ?? 0)}`;
}

export const REVIEW_LABELS = {
  approve: 'Approve and implement',
  changes: 'Request changes',
  cancel: 'Cancel',
  show: 'Show the whole plan',
  stop: 'Stop here',
  reject: 'Reject',
} as const;

/** The message the agent gets when the action it waits on is approved, or rejected. */
export const APPROVED_ACTION_MESSAGE = 'Approved: go ahead with what you were about to do.';
export const REJECTED_ACTION_MESSAGE =
  'Not approved: do not do that. Find another way, or stop and say why.';

/** The message the agent gets when its plan is approved. */
export const APPROVED_PLAN_MESSAGE =
  'The plan is approved. Carry it out as written, then report what you did.';

/** The message the agent gets when its requester lets it go on past its cap. */
export const CONTINUE_MESSAGE = 'Continue the task where you stopped.';
