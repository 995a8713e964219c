/**
 * A run's messages: the one status message (edited in place), the outcome reply that
 * mentions the requester, and the follow-up confirmation.
 */
import type { RunView } from '../../core/message/message-model.js';
import type { KnownBlock } from './blocks.js';
import { context, header, section } from './blocks.js';
import { code, escapeMrkdwn, oneLine, quote, truncatePlain } from './mrkdwn.js';
import {
  artifactLinks,
  linksSection,
  nextStepText,
  person,
  runButtons,
  runContextParts,
  statusMessageSection,
} from './render-run-parts.js';

export interface Rendered {
  /** Fallback for notifications and screen readers (mrkdwn, escaped). */
  text: string;
  blocks: KnownBlock[];
}

function compact(blocks: (KnownBlock | undefined)[]): KnownBlock[] {
  return blocks.filter((b): b is KnownBlock => b !== undefined);
}

function title(run: RunView, max = 200): string {
  return escapeMrkdwn(truncatePlain(oneLine(run.title) || run.runId, max));
}

function stateLine(run: RunView): string {
  const label = `*${escapeMrkdwn(run.state.label)}*`;
  return run.runTime === undefined ? label : `${label} · ${escapeMrkdwn(run.runTime)}`;
}

function nextStep(run: RunView): KnownBlock | undefined {
  const text = nextStepText(run);
  return text === undefined ? undefined : section(text);
}

export function renderRunStatus(run: RunView): Rendered {
  const blocks = compact([
    header(`${run.state.emoji} ${oneLine(run.title) || run.runId}`),
    section(stateLine(run)),
    context(runContextParts(run)),
    statusMessageSection(run),
    linksSection(artifactLinks(run)),
    nextStep(run),
    runButtons(run, true),
  ]);
  const text = `${run.state.emoji} ${title(run)}: ${escapeMrkdwn(run.state.label)}`;
  return { text, blocks };
}

function outcomeSentence(run: RunView): string {
  const who = run.requester === undefined ? '' : `${person(run.requester)} `;
  const after = run.runTime === undefined ? '' : ` after ${escapeMrkdwn(run.runTime)}`;
  const head = `${who}${run.state.emoji} *${title(run)}*`;
  if (run.state.blocked) {
    return `${head} is waiting for your input. Reply in this thread to answer the agent.`;
  }
  return `${head}: ${escapeMrkdwn(run.state.label)}${after}.`;
}

export function renderRunOutcome(run: RunView): Rendered {
  const blocks = compact([
    section(outcomeSentence(run)),
    statusMessageSection(run),
    linksSection(artifactLinks(run)),
    nextStep(run),
    context([`run ${code(run.runId)}`]),
    runButtons(run, false),
  ]);
  const who = run.requester === undefined ? '' : `${person(run.requester)} `;
  const text = `${who}${title(run)}: ${escapeMrkdwn(run.state.label)}`;
  return { text, blocks };
}

export function renderFollowupSent(run: RunView, message: string): Rendered {
  const blocks = compact([
    section(`↪️ Sent your follow-up to *${title(run)}*:\n${quote(truncatePlain(message, 1000))}`),
    context([`${run.state.emoji} ${escapeMrkdwn(run.state.label)}`, `run ${code(run.runId)}`]),
  ]);
  return { text: `Follow-up sent to ${title(run)}`, blocks };
}
