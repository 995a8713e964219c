import { escapeLineStarts, escapeMarkdownSpecials } from '../../core/message/markdown-gfm.js';

/**
 * Markdown's special characters in text that is not ours, escaped, and the markers at the
 * start of its lines; on Linear `<` and `>` take a backslash like the rest, and line breaks
 * are kept.
 */
export function escapeMarkdown(text: string): string {
  return escapeLineStarts(escapeMarkdownSpecials(text, 'backslash'));
}
