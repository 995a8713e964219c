/**
 * The agent's own final words as Linear Markdown: re-written through the same walk as the
 * other platforms (its emphasis, code and links kept; HTML and anything unknown escaped) and
 * bounded, so an activity never carries markup the agent did not mean or a wall of text.
 */
import { rewriteMarkdown, type MarkdownRules } from '../../core/message/markdown-walk.js';
import { escapeMarkdown } from './markdown-escape.js';

/** Characters of the agent's words in one activity. */
const AGENT_WORDS_CHARS = 6_000;

function fenced(text: string, min: number): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(min, longest + 1));
}

const RULES: MarkdownRules = {
  text: (plain) => escapeMarkdown(plain),
  strong: (inner) => (inner.trim() === '' ? inner : `**${inner}**`),
  em: (inner) => (inner.trim() === '' ? inner : `_${inner}_`),
  strike: (inner) => (inner.trim() === '' ? inner : `~~${inner}~~`),
  code: (plain) => {
    const line = plain.replace(/\r?\n|\r/g, ' ');
    const fence = fenced(line, 1);
    const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
    return `${fence}${pad}${line}${pad}${fence}`;
  },
  link: (label, href) =>
    /^https?:\/\/[^\s<>()]+$/i.test(href)
      ? `[${escapeMarkdown(label)}](${href})`
      : escapeMarkdown(label),
  codeBlock: (plain, lang) => {
    const fence = fenced(plain, 3);
    return `${fence}${/^[\w+-]{1,20}$/.test(lang) ? lang : ''}\n${plain}\n${fence}`;
  },
  heading: (inner) => `**${inner}**`,
  quote: (inner) =>
    inner
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n'),
  listItem: (inner, marker) => `${marker ?? '-'} ${inner}`,
  rule: () => '---',
};

/** The agent's Markdown, made safe for an activity and bounded. */
export function agentMarkdown(markdown: string): string {
  const bounded =
    markdown.length <= AGENT_WORDS_CHARS
      ? markdown
      : `${markdown.slice(0, AGENT_WORDS_CHARS - 1)}…`;
  return rewriteMarkdown(bounded, RULES);
}
