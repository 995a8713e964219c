/**
 * Escaping for text that comes from users or the service and lands in a GitHub comment.
 * GitHub-flavoured Markdown renders HTML, links, emphasis, tables and @-mentions; text we did
 * not write must show as written and must not ping anyone. The Markdown rules themselves
 * (code spans, fences, links, punctuation, line-start markers) are shared with Linear in
 * core's `markdown-gfm.ts`; here are GitHub's own: HTML kept out with entities, and mentions.
 */
import { clip } from '../../core/text.js';
import {
  codeSpan as gfmCodeSpan,
  escapeLineStarts,
  escapeMarkdownSpecials,
  markdownLink,
} from '../../core/message/markdown-gfm.js';
import { neutraliseMentions } from '../../platform/mentions.js';

/**
 * The most raw characters of one piece of text shown in a line. Escaping can grow text about
 * fivefold (`&` -> `&amp;`), so a line stays far below GitHub's 65,536-character limit and is
 * never cut by the splitter (a cut could separate a backslash from what it escapes).
 */
export const MAX_INLINE_CHARS = 2_000;

/**
 * Escape plain text for use inside a line (titles, table cells, list items). Newlines become
 * spaces, Markdown and HTML specials are backslash-escaped, mentions are neutralised.
 */
export function escapeInline(text: string, max = MAX_INLINE_CHARS): string {
  const oneLine = clip(text, max).replace(/\r?\n|\r/g, ' ');
  const escaped = escapeMarkdownSpecials(oneLine, 'entities');
  return neutraliseMentions(escapeLineStarts(escaped));
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
 * An inline code span that shows `text` literally, bounded like other inline text. In a table
 * cell a `|` would end the cell even inside code (and `\\|` is read as an escaped backslash
 * then a bare pipe), so text with a pipe is shown escaped instead of as code there.
 */
export function codeSpan(text: string, opts: { inTable?: boolean } = {}): string {
  const clipped = clip(text, MAX_INLINE_CHARS);
  if (opts.inTable && clipped.includes('|')) return escapeInline(clipped);
  return gfmCodeSpan(clipped);
}

/** A Markdown link whose label is escaped; only http(s) URLs become links. */
export function link(label: string, url: string | undefined): string {
  return markdownLink(escapeInline(label), url);
}
