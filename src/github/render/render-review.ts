/**
 * A question about a run as a GitHub comment: the plan in full (GitHub folds long comments
 * itself) or the stop at the spending cap, and the answers as words to reply with. The check
 * run's buttons answer it too, where the run has one.
 */
import type { MessageModel } from '../../core/message/message-model.js';
import { capWords, reviewHeadline, typedAnswers } from '../../core/message/review-text.js';
import { agentMarkdown } from './agent-words.js';
import { codeSpan, escapeInline, link } from './markdown-escape.js';
import { personMention } from './render-run.js';

type ReviewModel = Extract<MessageModel, { type: 'review' }>;

export function renderReviewMarkdown(model: ReviewModel, invocation: string): string {
  const { run, review } = model;
  const lead = run.requester === undefined || model.full ? '' : `${personMention(run.requester)} `;
  const emoji = review.kind === 'plan' ? '📋' : review.kind === 'action' ? '✋' : '💰';
  const title = escapeInline(review.plan?.title ?? run.title);
  const head = `${lead}${emoji} **${reviewHeadline(review)}**: ${title}`;
  // The status comment holds the plan: the reply tells the requester and points there.
  if (review.kind === 'plan' && !model.full && model.cardUrl !== undefined) {
    return [
      `${head} · ${link('the plan', model.cardUrl)}`,
      '',
      typedAnswers(review, invocation),
    ].join('\n');
  }
  const lines = [head];
  if (review.kind === 'cap') lines.push('', escapeInline(capWords(review)));
  if (review.kind === 'action' && review.action !== undefined)
    lines.push('', `It wants to: ${codeSpan(review.action.what)}`);
  const markdown = review.plan?.markdown;
  if (markdown !== undefined) lines.push('', agentMarkdown(markdown));
  if (review.plan?.url !== undefined) lines.push('', link('Open the plan', review.plan.url));
  // Our own words and the bot's handle, in code spans: nothing to escape.
  if (!model.full) lines.push('', typedAnswers(review, invocation));
  return lines.join('\n');
}
