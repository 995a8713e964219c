/**
 * A comment's or description's words as plain text, from the wiki-markup string Jira's
 * webhooks send or from an ADF document (a mention node becomes Jira's own
 * `[~accountid:…]`, so both read the same way).
 */

/** Wiki markup's code, preformatted and quoted parts, and `bq.` lines: blanked for the scan. */
const WIKI_HIDDEN =
  /\{(code|noformat|quote)(?::[^}]*)?\}[\s\S]*?(?:\{\1\}|$)|^\s*bq\.\s.*$|\{\{[\s\S]*?\}\}/gim;

/** The text with the parts that never address anyone blanked (wiki code, quotes, monospace). */
export function addressableText(text: string): string {
  return text.replace(WIKI_HIDDEN, (m) => m.replace(/[^\r\n]/g, ' '));
}

interface AdfNode {
  type?: unknown;
  text?: unknown;
  attrs?: { id?: unknown };
  content?: unknown;
}

const BLOCKS = new Set(['paragraph', 'heading', 'codeBlock', 'blockquote', 'listItem', 'rule']);

function adfText(node: AdfNode, depth: number): string {
  if (depth > 50 || node === null || typeof node !== 'object') return '';
  // Code and quotes are shown, not said: they never address the relay.
  if (node.type === 'codeBlock' || node.type === 'blockquote') return '\n';
  if (node.type === 'text') return typeof node.text === 'string' ? node.text : '';
  if (node.type === 'hardBreak') return '\n';
  if (node.type === 'mention')
    return typeof node.attrs?.id === 'string' ? `[~accountid:${node.attrs.id}]` : '';
  const children = Array.isArray(node.content) ? (node.content as AdfNode[]) : [];
  const inner = children.map((c) => adfText(c, depth + 1)).join('');
  return BLOCKS.has(String(node.type)) ? `${inner}\n` : inner;
}

export function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body !== null && typeof body === 'object') return adfText(body as AdfNode, 0).trim();
  return '';
}
