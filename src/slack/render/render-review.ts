/**
 * A question about a run in Block Kit: its plan (the first lines, the rest a click away) with
 * Approve and implement / Request changes / Cancel, or its stop at the spending cap with
 * Continue / Stop here. Every button is bound to the run and the question's version.
 */
import type { MessageModel, ReviewView } from '../../core/message/message-model.js';
import {
  capWords,
  continueLabel,
  planPreview,
  REVIEW_LABELS,
  reviewHeadline,
} from '../../core/message/review-text.js';
import { REVIEW_ACTION_IDS } from '../api/action-ids.js';
import { reviewValue } from '../api/review-value.js';
import type { Button, KnownBlock } from './blocks.js';
import { actions, context, section, valueButton } from './blocks.js';
import { code, escapeMrkdwn, link, oneLine, truncatePlain } from './mrkdwn.js';
import { agentMrkdwn } from './agent-words.js';
import { person } from './render-run-parts.js';
import type { Rendered } from './render-run.js';

type ReviewModel = Extract<MessageModel, { type: 'review' }>;

/** A section holds 3,000 characters: a whole plan goes in several, split at line ends. */
const CHUNK_CHARS = 2_600;

function chunks(markdown: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const line of markdown.split('\n')) {
    if (current !== '' && current.length + line.length + 1 > CHUNK_CHARS) {
      out.push(current);
      current = '';
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  if (current !== '') out.push(current);
  return out;
}

function planBlocks(review: ReviewView, full: boolean): { blocks: KnownBlock[]; more: boolean } {
  const markdown = review.plan?.markdown;
  if (markdown === undefined) return { blocks: [], more: false };
  if (full) return { blocks: chunks(markdown).map((c) => section(agentMrkdwn(c))), more: false };
  const preview = planPreview(markdown);
  const blocks = [section(agentMrkdwn(preview.shown))];
  if (preview.more) blocks.push(context(['_…the rest of the plan is a click away._']));
  return { blocks, more: preview.more };
}

function answerButtons(model: ReviewModel, more: boolean): Button[] {
  const { run, review } = model;
  const value = reviewValue(run.runId, review.version);
  const named = escapeMrkdwn(truncatePlain(oneLine(run.title), 200));
  if (review.kind === 'action') {
    return [
      valueButton('Approve', value, REVIEW_ACTION_IDS.approve, { style: 'primary' }),
      valueButton(REVIEW_LABELS.reject, value, REVIEW_ACTION_IDS.reject, { style: 'danger' }),
    ];
  }
  if (review.kind === 'cap') {
    return [
      valueButton(continueLabel(review), value, REVIEW_ACTION_IDS.continue, { style: 'primary' }),
      valueButton(REVIEW_LABELS.stop, value, REVIEW_ACTION_IDS.stop),
    ];
  }
  const buttons = [
    valueButton(REVIEW_LABELS.approve, value, REVIEW_ACTION_IDS.approve, { style: 'primary' }),
    valueButton(REVIEW_LABELS.changes, value, REVIEW_ACTION_IDS.changes),
  ];
  if (more) buttons.push(valueButton(REVIEW_LABELS.show, value, REVIEW_ACTION_IDS.show));
  buttons.push(
    valueButton(REVIEW_LABELS.cancel, value, REVIEW_ACTION_IDS.cancel, {
      style: 'danger',
      confirm: {
        title: 'Cancel this run?',
        text: `The plan for *${named}* is dropped and the run ends.`,
        confirm: 'Cancel run',
        deny: 'Keep the plan',
      },
    }),
  );
  return buttons;
}

export function renderReview(model: ReviewModel): Rendered {
  const { run, review } = model;
  const who = run.requester === undefined || model.full ? '' : `${person(run.requester)} `;
  const titled = escapeMrkdwn(truncatePlain(oneLine(review.plan?.title ?? run.title), 200));
  const emoji = review.kind === 'plan' ? '📋' : review.kind === 'action' ? '✋' : '💰';
  const head = `${who}${emoji} *${escapeMrkdwn(reviewHeadline(review))}*: ${titled}`;
  const { blocks: plan, more } =
    review.kind === 'plan' ? planBlocks(review, model.full === true) : { blocks: [], more: false };
  const url = review.plan?.url;
  const blocks: KnownBlock[] = [section(head)];
  if (review.kind === 'cap') blocks.push(section(escapeMrkdwn(capWords(review))));
  if (review.kind === 'action' && review.action !== undefined) {
    const said = run.agentMessage?.trim();
    if (said) blocks.push(section(agentMrkdwn(said)));
    blocks.push(section(`It wants to: ${code(truncatePlain(oneLine(review.action.what), 300))}`));
  }
  const sub = review.kind === 'action' ? review.subRun : undefined;
  if (sub?.says)
    blocks.push(section(`It says: ${escapeMrkdwn(truncatePlain(oneLine(sub.says), 500))}`));
  if (sub?.sessionLink) blocks.push(context([link(sub.sessionLink, 'Open the sub-run’s session')]));
  blocks.push(...plan);
  if (url !== undefined) blocks.push(context([link(url, 'Open the plan')]));
  if (!model.full)
    blocks.push(actions(`agent_relay_review_${review.version}`, answerButtons(model, more)));
  return { text: head, blocks };
}
