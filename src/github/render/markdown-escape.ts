/**
 * Escaping for text that comes from users or the service and lands in a GitHub comment.
 * GitHub-flavoured Markdown renders HTML, links, emphasis, tables and @-mentions; text we did
 * not write must show as written and must not ping anyone.
 */

/** A zero-width space: `@\u200bname` looks like a mention but does not notify anyone. */
const ZWSP = '\u200b';

/** Characters Markdown or HTML may read as syntax anywhere in a line. */
const INLINE_SPECIALS = /[\\`*_[\]|~<>&]/g;
/** Markers that only mean something at the start of a line (heading, list, quote, rule). */
const LINE_START_MARKER = /^(\s*)([#+\-=>]|\d{1,9}(?=[.)]))/;

/**
 * The most raw characters of one piece of text shown in a line. Escaping can grow text about
 * fivefold (`&` -> `&amp;`), so a line stays far below GitHub's 65,536-character limit and is
 * never cut by the splitter (a cut could separate a backslash from what it escapes).
 */
export const MAX_INLINE_CHARS = 2_000;

/** At most `max` characters (never half a surrogate pair), with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** Neutralise `@login` and `@org/team` mentions. An e-mail address keeps its `@`. */
export function neutraliseMentions(text: string): string {
  return text.replace(/(^|[^A-Za-z0-9])@(?=[A-Za-z0-9])/g, `$1@${ZWSP}`);
}

/**
 * Escape plain text for use inside a line (titles, table cells, list items). Newlines become
 * spaces, Markdown and HTML specials are backslash-escaped, mentions are neutralised.
 */
export function escapeInline(text: string, max = MAX_INLINE_CHARS): string {
  const oneLine = clip(text, max).replace(/\r?\n|\r/g, ' ');
  const escaped = oneLine.replace(INLINE_SPECIALS, (c) => {
    if (c === '<') return '&lt;';
    if (c === '>') return '&gt;';
    if (c === '&') return '&amp;';
    return `\\${c}`;
  });
  const leading = escaped.replace(LINE_START_MARKER, (_m, space: string, marker: string) =>
    /^\d/.test(marker) ? `${space}${marker}\\` : `${space}\\${marker}`,
  );
  return neutraliseMentions(leading);
}

/**
 * Escape multi-line plain text as a block quote: each line escaped like inline text, so
 * line-start markers (`#`, `-`, `>`, `1.`) and fences cannot take effect either.
 */
export function escapeBlockQuote(text: string): string {
  return text
    .split(/\r?\n|\r/)
    .map((line) => (line.trim() === '' ? '>' : `> ${escapeInline(line)}`))
    .join('\n');
}

/**
 * An inline code span that shows `text` literally: the fence is longer than any backtick run
 * inside. In a table cell a `|` would end the cell even inside code (and `\\|` is read as an
 * escaped backslash then a bare pipe), so text with a pipe is shown escaped instead of as
 * code there.
 */
export function codeSpan(text: string, opts: { inTable?: boolean } = {}): string {
  const oneLine = clip(text, MAX_INLINE_CHARS).replace(/\r?\n|\r/g, ' ');
  if (opts.inTable && oneLine.includes('|')) return escapeInline(oneLine);
  const longestRun = Math.max(0, ...(oneLine.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

/** A fenced code block that cannot be closed early by the text inside it. */
export function codeBlock(text: string, info = ''): string {
  const longestRun = Math.max(0, ...(text.match(/`{3,}/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

/**
 * A Markdown link whose label is escaped. Only http(s) URLs become links; anything else is
 * shown as escaped text so a `javascript:` URL cannot sneak in.
 */
export function link(label: string, url: string | undefined): string {
  const text = escapeInline(label);
  if (url === undefined || !/^https?:\/\/[^\s<>()]+$/i.test(url)) return text;
  return `[${text}](${url})`;
}
