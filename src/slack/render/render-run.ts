/**
 * A run's messages: the one status message (edited in place), the outcome reply that
 * mentions the requester, and the follow-up confirmation.
 */
import type { FollowupRouting, RunView } from '../../core/message/message-model.js';
import { ROUTED_WORDS } from '../../core/message/followup-routing.js';
import type { KnownBlock } from './blocks.js';
import { context, header, section } from './blocks.js';
import { escapeMrkdwn, link, oneLine, quote, truncatePlain } from './mrkdwn.js';
import { pullRequestLinks } from '../../core/message/run-links.js';
import { labelledUsage } from '../../core/message/usage-text.js';
import {
  artifactLinks,
  linksSection,
  nextStepText,
  person,
  runButtons,
  runContextParts,
  statusMessageSection,
} from './render-run-parts.js';
import { agentWordsBlock, progressBlock } from './agent-words.js';

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

/**
 * What a live run used so far, when the service reported it. Once the run ends or waits, the
 * outcome reply says it (so the card does not repeat it).
 */
function usageContext(run: RunView): KnownBlock | undefined {
  const usage = labelledUsage(run, true);
  if (usage === undefined || !run.state.live) return undefined;
  return context([escapeMrkdwn(usage)]);
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
    progressBlock(run),
    usageContext(run),
    statusMessageSection(run),
    linksSection(artifactLinks(run)),
    nextStep(run),
    runButtons(run, true),
  ]);
  const text = `${run.state.emoji} ${title(run)}: ${escapeMrkdwn(run.state.label)}`;
  return { text, blocks };
}

/**
 * The outcome in words a person knows, with the run time: "Succeeded after 3s". The title
 * follows a colon, so a title made from the prompt reads as well as one the service gave.
 */
function outcomeWords(run: RunView): string {
  const after = run.runTime === undefined ? '' : ` after ${escapeMrkdwn(run.runTime)}`;
  if (run.state.blocked) return 'Waiting for your input';
  return `${escapeMrkdwn(run.state.label)}${after}`;
}

/** Where the detail is and what to do next, in a few words (the card says it in full). */
function pointer(run: RunView): string {
  if (run.state.blocked) return "the agent's question is above; answer in this thread";
  if (run.state.success === true) return 'details above';
  return run.state.name === 'CANCELLED'
    ? 'details above; reply here to resume'
    : 'details above; reply here to try again';
}

/**
 * The one line that tells the requester a run ended or waits: the status message above
 * holds the detail (the agent's words, links, buttons), so this line never repeats it.
 */
export function renderRunOutcome(run: RunView): Rendered {
  const who = run.requester === undefined ? '' : `${person(run.requester)} `;
  const words = agentWordsBlock(run);
  // With the agent's own words below, a BLOCKED run's question is here, not above.
  const where = words !== undefined && run.state.blocked ? 'answer in this thread' : pointer(run);
  const prs = pullRequestLinks(run.links).map(
    (l) => `${link(l.url, truncatePlain(oneLine(l.label), 200))} · `,
  );
  const line = `${who}${run.state.emoji} ${outcomeWords(run)}: *${title(run)}* · ${prs.join('')}${where}`;
  // What the run used is said here, once: the card shows it only while the run is live.
  const usage = labelledUsage(run);
  const said = usage === undefined ? line : `${line}\n${escapeMrkdwn(usage)}`;
  return { text: said, blocks: compact([section(said), words]) };
}

export function renderFollowupSent(
  run: RunView,
  message: string,
  routed?: FollowupRouting,
): Rendered {
  // The state and the run id are on the status message: this confirms only what was sent.
  const where = routed === undefined ? '' : ` (${ROUTED_WORDS[routed]})`;
  const blocks = [
    section(
      `↪️ Sent your follow-up to *${title(run)}*${where}:\n${quote(truncatePlain(message, 1000))}`,
    ),
  ];
  return { text: `Follow-up sent to ${title(run)}`, blocks };
}
