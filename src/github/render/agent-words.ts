/**
 * The agent's own words and its progress in GitHub Markdown: the final message re-written
 * through the escaping rules (its emphasis, code and links kept; HTML and @-mentions made
 * harmless) and bounded, and the status comment's "now" lines.
 */
import type { RunView } from '../../core/message/message-model.js';
import { STEP_MARK, STEP_WORDS } from '../../core/message/progress.js';
import { rewriteMarkdown } from '../../core/message/markdown-walk.js';
import { markdownRules } from '../../core/message/markdown-gfm.js';
import { clip } from '../../core/text.js';
import { codeSpan, escapeInline } from './markdown-escape.js';

/** Characters of the agent's words in one comment (far below the comment limit). */
const AGENT_WORDS_CHARS = 6_000;

/** GitHub's escaping of plain text; code spans bounded like other inline text. */
const MARKDOWN = markdownRules(
  (plain) => escapeInline(plain),
  (plain) => codeSpan(plain),
);

/** The agent's Markdown, made safe for a comment and bounded. */
export function agentMarkdown(markdown: string): string {
  return rewriteMarkdown(clip(markdown, AGENT_WORDS_CHARS), MARKDOWN);
}

/** "Now:" lines while the run works (empty when there is nothing to show). */
export function progressLines(run: RunView): string[] {
  const progress = run.progress;
  if (progress === undefined || !run.state.live) return [];
  if (progress.kind === 'setup') {
    return [`**Setting up:** ${escapeInline(progress.events.join(', '))}`];
  }
  return [
    '**Now:**',
    ...progress.steps.map(
      (s) => `- ${STEP_MARK[s.state]} ${escapeInline(s.title, 200)} _(${STEP_WORDS[s.state]})_`,
    ),
  ];
}

/** The agent's final words for the outcome comment, or nothing. */
export function agentWordsLines(run: RunView): string[] {
  const words = run.agentMessage?.trim();
  if (words === undefined || words === '') return [];
  return ['', agentMarkdown(words)];
}
