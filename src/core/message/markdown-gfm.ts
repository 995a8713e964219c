/**
 * GitHub-flavoured Markdown as the relay writes it wherever Markdown is read (GitHub, Linear):
 * code spans and fenced blocks that the text inside cannot close, links only to http(s)
 * URLs, Markdown's punctuation and line-start markers in text we did not write escaped, and
 * the rules that re-write the agent's Markdown (`markdown-walk.ts`) with them. Each platform
 * brings its own escaping of plain text (how it keeps HTML out, and anything more it needs).
 */
import { honestLabel } from './link-label.js';
import type { MarkdownRules } from './markdown-walk.js';

/**
 * How text keeps `<` and `>` from reading as HTML: as entities (and `&` as `&amp;`, so an
 * entity the text spells out shows as written), or with a backslash like the rest.
 */
export type AngleEscape = 'entities' | 'backslash';

/** Characters Markdown or HTML may read as syntax anywhere in a line. */
const SPECIALS = /[\\`*_[\]|~<>&]/g;
const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/** Markdown's special characters in `text` escaped, so it shows as written. */
export function escapeMarkdownSpecials(text: string, angles: AngleEscape): string {
  return text.replace(SPECIALS, (c) => {
    if (angles === 'entities' && c in ENTITIES) return ENTITIES[c] ?? c;
    if (c === '&') return c;
    return `\\${c}`;
  });
}

/** Markers that only mean something at the start of a line (heading, list, quote, rule). */
const LINE_START_MARKER = /^([^\S\r\n]*)([#+\-=>]|\d{1,9}(?=[.)]))/gm;

/**
 * The markers at the start of each line of `text` escaped (`\#`, `\-`, `1\.`), so text we
 * did not write cannot become a heading, a list, a quote or a rule.
 */
export function escapeLineStarts(text: string): string {
  return text.replace(LINE_START_MARKER, (_m, space: string, marker: string) =>
    /^\d/.test(marker) ? `${space}${marker}\\` : `${space}\\${marker}`,
  );
}

/** The longest run of backticks in `text` (0 when there is none). */
function longestBackticks(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/**
 * An inline code span that shows `text` literally on one line: the fence is longer than any
 * backtick run inside, and padded when the text starts or ends with a backtick.
 */
export function codeSpan(text: string): string {
  const line = text.replace(/\r?\n|\r/g, ' ');
  const fence = '`'.repeat(longestBackticks(line) + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** A fenced code block that cannot be closed early by the text inside it. */
export function codeBlock(text: string, info = ''): string {
  const fence = '`'.repeat(Math.max(3, longestBackticks(text) + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

/**
 * A link to `url` labelled `label` (already escaped) when `url` is http(s); anything else
 * shows the label alone, so a `javascript:` URL cannot sneak in.
 */
export function markdownLink(label: string, url: string | undefined): string {
  if (url === undefined || !/^https?:\/\/[^\s<>()]+$/i.test(url)) return label;
  return `[${label}](${url})`;
}

/**
 * The rules that re-write the agent's Markdown: `escape` is the platform's escaping of plain
 * text (link labels too), `code` its inline code span. Emphasis, code and http(s) links are
 * kept (a label that reads like an address or a pull request must name where the link goes,
 * link-label.ts), a heading becomes bold, a fenced block keeps a plain language name only.
 */
export function markdownRules(
  escape: (plain: string) => string,
  code: (plain: string) => string = codeSpan,
): MarkdownRules {
  return {
    text: escape,
    strong: (inner) => (inner.trim() === '' ? inner : `**${inner}**`),
    em: (inner) => (inner.trim() === '' ? inner : `_${inner}_`),
    strike: (inner) => (inner.trim() === '' ? inner : `~~${inner}~~`),
    code,
    link: (label, href) => markdownLink(escape(honestLabel(label, href)), href),
    codeBlock: (plain, lang) => codeBlock(plain, /^[\w+-]{1,20}$/.test(lang) ? lang : ''),
    heading: (inner) => `**${inner}**`,
    quote: (inner) =>
      inner
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n'),
    listItem: (inner, marker) => `${marker ?? '-'} ${inner}`,
    rule: () => '---',
  };
}
