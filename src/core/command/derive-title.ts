/**
 * A run title derived from its prompt (docs/architecture.md, "Context the agent gets"): the first line
 * that has words once markup is stripped, whitespace collapsed, cut at a word boundary with
 * '…' so the result is at most `max` characters. '' when the prompt has no words at all.
 */

const MARKUP: [RegExp, string][] = [
  [/<@[A-Za-z0-9]+\|([^>]+)>/g, '@$1'], // Slack user mention with name
  [/<#[A-Za-z0-9]+\|([^>]+)>/g, '#$1'], // Slack channel
  [/<([^|>\s]+)\|([^>]+)>/g, '$2'], // Slack link with label
  [/<(https?:[^>\s]+)>/g, '$1'], // Slack bare link
  [/<[@#!]([^>]+)>/g, '@$1'], // Slack mention without name, <!here>
  [/!?\[([^\]]*)\]\([^)]*\)/g, '$1'], // Markdown link / image
  [/^\s*(?:`{3,}|~{3,})\S*\s*$/, ''], // a code fence line
  [/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,9}[.)]\s+)/, ''], // heading, quote, list
  [/(\*\*|~~|\*|`+)(?=\S)(.*?\S)\1/g, '$2'], // emphasis, strike, code spans
  [/(?<![\p{L}\p{N}])(__|_)(?=\S)(.*?\S)\1(?![\p{L}\p{N}])/gu, '$2'], // _emphasis_, not snake_case
  [/&gt;/g, '>'],
  [/&lt;/g, '<'],
  [/&amp;/g, '&'],
];

function stripMarkup(line: string): string {
  let out = line;
  for (const [re, replacement] of MARKUP) out = out.replace(re, replacement);
  return out.replace(/\s+/g, ' ').trim();
}

export function deriveTitle(prompt: string, max = 80): string {
  const limit = Math.max(1, Math.floor(max));
  // Only the start of a line can make a title: bounding it keeps the markup regexes cheap.
  const line = prompt
    .split(/\r\n|\r|\n/, 200)
    .map((l) => stripMarkup(l.slice(0, 4 * limit + 200)))
    .find((l) => /[\p{L}\p{N}]/u.test(l));
  if (line === undefined) return '';
  const chars = Array.from(line);
  if (chars.length <= limit) return line;
  const cut = chars.slice(0, limit - 1).join('');
  const boundary = cut.lastIndexOf(' ');
  const head = boundary >= Math.floor(limit / 2) ? cut.slice(0, boundary) : cut;
  return `${head.replace(/[\s,;:.\-–—]+$/, '')}…`;
}
