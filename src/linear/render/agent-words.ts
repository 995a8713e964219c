/**
 * The agent's own final words as Linear Markdown: re-written through the same walk and rules
 * as GitHub's (its emphasis, code and links kept; HTML and anything unknown escaped) and
 * bounded, so an activity never carries markup the agent did not mean or a wall of text.
 */
import { rewriteMarkdown } from '../../core/message/markdown-walk.js';
import { markdownRules } from '../../core/message/markdown-gfm.js';
import { clip } from '../../core/text.js';
import { escapeMarkdown } from './markdown-escape.js';

/** Characters of the agent's words in one activity. */
const AGENT_WORDS_CHARS = 6_000;

const RULES = markdownRules(escapeMarkdown);

/** The agent's Markdown, made safe for an activity and bounded. */
export function agentMarkdown(markdown: string): string {
  return rewriteMarkdown(clip(markdown, AGENT_WORDS_CHARS), RULES);
}
