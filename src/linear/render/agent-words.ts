/**
 * The agent's own final words as Linear Markdown: re-written through the same walk and rules
 * as GitHub's (its emphasis, code and links kept; HTML and anything unknown escaped) and
 * bounded, so an activity never carries markup the agent did not mean or a wall of text.
 * Linear turns `@name` and a link to a person's profile into a mention that notifies them:
 * in the agent's words neither does (`@` is followed by a zero-width space, a profile address
 * shows as code, a link to one keeps its label only).
 */
import { rewriteMarkdown } from '../../core/message/markdown-walk.js';
import { honestLabel } from '../../core/message/link-label.js';
import { codeSpan, markdownLink, markdownRules } from '../../core/message/markdown-gfm.js';
import { clip } from '../../core/text.js';
import { neutraliseMentions } from '../../platform/mentions.js';
import { escapeMarkdown } from './markdown-escape.js';

/** Characters of the agent's words in one activity. */
const AGENT_WORDS_CHARS = 6_000;

/** A person's profile on Linear, which Linear shows as a mention of them. */
const PROFILE = /https?:\/\/(?:[\w-]+\.)*linear\.app\/[^\s/]+\/profiles\/[^\s)\]>]+/gi;
const isProfile = (href: string) => new RegExp(PROFILE.source, 'i').test(href);

/** Plain text: escaped, `@name` made harmless, profile addresses shown as code. */
function plain(text: string): string {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(PROFILE)) {
    out += neutraliseMentions(escapeMarkdown(text.slice(at, match.index)));
    out += codeSpan(match[0]);
    at = match.index + match[0].length;
  }
  return out + neutraliseMentions(escapeMarkdown(text.slice(at)));
}

const RULES = {
  ...markdownRules(plain),
  link: (label: string, href: string) =>
    isProfile(href) ? plain(label) : markdownLink(plain(honestLabel(label, href)), href),
};

/** The agent's Markdown, made safe for an activity and bounded. */
export function agentMarkdown(markdown: string): string {
  return rewriteMarkdown(clip(markdown, AGENT_WORDS_CHARS), RULES);
}
