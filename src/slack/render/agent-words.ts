/**
 * The agent's own words and its progress in Slack mrkdwn: the final message (Markdown as the
 * agent wrote it, re-written to mrkdwn and bounded) and the status message's "now" lines.
 */
import type { RunView } from '../../core/message/message-model.js';
import { STEP_MARK, STEP_WORDS } from '../../core/message/progress.js';
import { rewriteMarkdown, type MarkdownRules } from '../../core/message/markdown-walk.js';
import { honestLabel } from '../../core/message/link-label.js';
import type { KnownBlock } from './blocks.js';
import { context, section } from './blocks.js';
import {
  code,
  codeBlock,
  escapeMrkdwn,
  link,
  oneLine,
  truncateMrkdwn,
  truncatePlain,
} from './mrkdwn.js';

/** A section's text may hold 3,000 characters; the heading takes some. */
const AGENT_WORDS_CHARS = 2_800;

const MRKDWN: MarkdownRules = {
  text: escapeMrkdwn,
  strong: (inner) => (inner.trim() === '' ? inner : `*${inner}*`),
  em: (inner) => (inner.trim() === '' ? inner : `_${inner}_`),
  strike: (inner) => (inner.trim() === '' ? inner : `~${inner}~`),
  code: (plain) => code(plain),
  link: (label, href) => link(href, honestLabel(label, href)),
  codeBlock: (plain) => codeBlock(plain),
  heading: (inner) => `*${inner}*`,
  quote: (inner) =>
    inner
      .split('\n')
      .map((line) => `>${line}`)
      .join('\n'),
  listItem: (inner, marker) => `${marker ?? '•'} ${inner}`,
  rule: () => '———',
};

/** The agent's Markdown as mrkdwn, bounded. */
export function agentMrkdwn(markdown: string, max = AGENT_WORDS_CHARS): string {
  return truncateMrkdwn(rewriteMarkdown(markdown, MRKDWN), max);
}

/** "Now:" the agent's last steps, or set-up so far, while the run works. */
export function progressBlock(run: RunView): KnownBlock | undefined {
  const progress = run.progress;
  if (progress === undefined || !run.state.live) return undefined;
  if (progress.kind === 'setup') {
    return context([`*Setting up:* ${escapeMrkdwn(progress.events.join(', '))}`]);
  }
  const lines = progress.steps.map(
    (s) =>
      `${STEP_MARK[s.state]} ${escapeMrkdwn(truncatePlain(oneLine(s.title), 120))} _(${STEP_WORDS[s.state]})_`,
  );
  return section(`*Now:*\n${lines.join('\n')}`);
}

/** The agent's final words in the outcome reply (its answer, or its question). */
export function agentWordsBlock(run: RunView): KnownBlock | undefined {
  const words = run.agentMessage?.trim();
  if (words === undefined || words === '') return undefined;
  return section(agentMrkdwn(words));
}
