/**
 * A run as a GitHub check run on its pull request's head commit (pure): named after the run,
 * `in_progress` while it lives, concluded when it ends or waits for input (BLOCKED:
 * `action_required`), with a summary of its state, pull request, session and the agent's last
 * steps.
 *
 * GitHub shows a check run's buttons only once it has completed (`actions` in its REST
 * description of `checks/create`), so a working run's check run carries none: its summary says
 * how to stop or cancel from the pull request's conversation, where the status comment lists
 * the same commands. A run that waits for input (completed, `action_required`) gets Cancel.
 */
import type { RunView } from '../../core/message/message-model.js';
import { CHECK_ACTIONS, reviewIdentifier } from '../api/check-actions.js';
import { typedAnswers } from '../../core/message/review-text.js';
import { agentMarkdown, progressLines } from './agent-words.js';
import { clip } from '../../core/text.js';
import { codeSpan, escapeBlockQuote, escapeInline, link } from './markdown-escape.js';
import { checkExternalId } from '../api/check-external-id.js';

export type CheckConclusion = 'success' | 'failure' | 'cancelled' | 'action_required';

/** What is written to a check run (the create and the update bodies share these fields). */
export interface CheckRunFields {
  name: string;
  external_id: string;
  details_url?: string;
  status: 'in_progress' | 'completed';
  conclusion?: CheckConclusion;
  output: { title: string; summary: string };
  actions: { label: string; description: string; identifier: string }[];
}

/** GitHub names a check run in at most this many characters (its page cuts longer ones). */
const NAME_CHARS = 100;
/** Characters of the agent's words in the summary (GitHub allows 65,535). */
const WORDS_CHARS = 3_000;

export function checkRunName(run: RunView, botHandle = 'agent-relay'): string {
  return clip(`${botHandle}: ${run.title}`, NAME_CHARS);
}

export function conclusionOf(run: RunView): CheckConclusion | undefined {
  const { state } = run;
  if (state.blocked) return 'action_required';
  if (!state.ended) return undefined;
  if (state.success === true) return 'success';
  return state.name === 'CANCELLED' ? 'cancelled' : 'failure';
}

function summaryOf(run: RunView, cardUrl: string | undefined, botHandle: string): string {
  const { state } = run;
  const time = run.runTime === undefined ? '' : ` · ${escapeInline(run.runTime)}`;
  const lines = [`**State:** ${state.emoji} ${escapeInline(state.label)}${time}`];
  const links: string[] = [];
  for (const l of run.links.filter((x) => x.kind === 'pull_request' && x.url !== undefined)) {
    // A GitHub pull request's label already says so ("PR: o/r#7"); a bare URL does not.
    const said = l.label.startsWith('PR: ');
    links.push(said ? link(l.label, l.url) : `**Pull request:** ${link(l.label, l.url)}`);
  }
  if (run.sessionLink !== undefined) links.push(link('Session', run.sessionLink));
  if (cardUrl !== undefined) links.push(link('Status comment', cardUrl));
  if (links.length > 0) lines.push('', links.join(' · '));
  const now = progressLines(run);
  if (now.length > 0) lines.push('', ...now);
  if (state.live && !state.blocked && !state.ended) {
    const say = (word: string) => codeSpan(`@${botHandle} ${word}`);
    lines.push(
      '',
      `**Stop or cancel:** comment ${say('stop')} (interrupt the agent) or ${say('cancel')} ` +
        '(end the run) on the pull request.',
    );
  }
  if (run.statusMessage !== undefined && run.statusMessage.trim() !== '') {
    lines.push('', escapeBlockQuote(run.statusMessage));
  }
  const plan = run.review?.kind === 'plan' && state.blocked ? run.review.plan : undefined;
  if (plan?.markdown !== undefined) lines.push('', agentMarkdown(clip(plan.markdown, WORDS_CHARS)));
  if (plan !== undefined) {
    lines.push('', typedAnswers(run.review!, `@${botHandle}`), '');
    lines.push('**Request changes:** reply on the pull request with what to change.');
  }
  const words = run.agentMessage?.trim();
  if (words !== undefined && words !== '' && !state.live && plan === undefined) {
    lines.push('', agentMarkdown(clip(words, WORDS_CHARS)));
  }
  return lines.join('\n');
}

/**
 * The buttons of a completed check run: Cancel while the run waits for input; none once it
 * ended. A working run's check run is in progress, where GitHub would show no button.
 */
function actionsOf(run: RunView): CheckRunFields['actions'] {
  if (!run.state.blocked || run.state.ended) return [];
  const review = run.review;
  if (review?.kind === 'plan') {
    // GitHub's limits: a label of 20 characters, a description of 40.
    return [
      {
        label: 'Approve & implement',
        description: 'Carry out the plan (needs write access)',
        identifier: reviewIdentifier('approve', review.version),
      },
      {
        label: 'Cancel',
        description: 'Drop the plan and end the run',
        identifier: reviewIdentifier('cancel', review.version),
      },
    ];
  }
  return [
    {
      label: 'Cancel',
      description: 'End the run (needs write access)',
      identifier: CHECK_ACTIONS.cancel,
    },
  ];
}

export function renderCheckRun(
  run: RunView,
  opts: { botHandle?: string; cardUrl?: string; pullNumber?: number } = {},
): CheckRunFields {
  const conclusion = conclusionOf(run);
  const detailsUrl = run.sessionLink ?? opts.cardUrl;
  return {
    name: checkRunName(run, opts.botHandle),
    external_id:
      opts.pullNumber === undefined ? run.runId : checkExternalId(run.runId, opts.pullNumber),
    ...(detailsUrl === undefined ? {} : { details_url: detailsUrl }),
    status: conclusion === undefined ? 'in_progress' : 'completed',
    ...(conclusion === undefined ? {} : { conclusion }),
    output: {
      title: clip(`${run.state.label}: ${run.title}`, NAME_CHARS),
      summary: summaryOf(run, opts.cardUrl, opts.botHandle ?? 'agent-relay'),
    },
    actions: actionsOf(run),
  };
}
