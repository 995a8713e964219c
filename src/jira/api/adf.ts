/**
 * Atlassian Document Format, the part of it the relay writes: the nodes and marks of
 * Atlassian's ADF structure reference (developer.atlassian.com/cloud/jira/platform/apis/document/structure),
 * with small builders. Text is always a text node's value, never markup, so nothing a
 * person or the agent wrote can become a node: a `[~accountid:…]` or `@name` in text is
 * shown, not a mention.
 */

export type AdfMark =
  | { type: 'strong' }
  | { type: 'em' }
  | { type: 'strike' }
  | { type: 'code' }
  | { type: 'link'; attrs: { href: string } };

export type AdfInline =
  | { type: 'text'; text: string; marks?: AdfMark[] }
  | { type: 'hardBreak' }
  | { type: 'mention'; attrs: { id: string; text: string } };

export type AdfBlock =
  | { type: 'paragraph'; content: AdfInline[] }
  | { type: 'heading'; attrs: { level: number }; content: AdfInline[] }
  | { type: 'bulletList'; content: AdfListItem[] }
  | { type: 'orderedList'; attrs: { order: number }; content: AdfListItem[] }
  | { type: 'codeBlock'; attrs: { language?: string }; content: { type: 'text'; text: string }[] }
  | { type: 'blockquote'; content: AdfBlock[] }
  | { type: 'rule' };

export interface AdfListItem {
  type: 'listItem';
  content: AdfBlock[];
}

export interface AdfDoc {
  version: 1;
  type: 'doc';
  content: AdfBlock[];
}

export const doc = (content: AdfBlock[]): AdfDoc => ({ version: 1, type: 'doc', content });

/** A text node; empty text is no node (ADF refuses empty text). */
export function text(value: string, marks: AdfMark[] = []): AdfInline[] {
  if (value === '') return [];
  return [marks.length > 0 ? { type: 'text', text: value, marks } : { type: 'text', text: value }];
}

export const strong = (value: string): AdfInline[] => text(value, [{ type: 'strong' }]);
export const code = (value: string): AdfInline[] => text(value, [{ type: 'code' }]);

/** A link when the address is http(s) or mailto; otherwise the label alone. */
export function link(label: string, href: string | undefined): AdfInline[] {
  if (href === undefined || !/^(https?:|mailto:)/i.test(href)) return text(label);
  return text(label || href, [{ type: 'link', attrs: { href } }]);
}

export const mention = (accountId: string, name?: string): AdfInline => ({
  type: 'mention',
  attrs: { id: accountId, text: `@${name ?? accountId}` },
});

export const paragraph = (...content: AdfInline[][]): AdfBlock => ({
  type: 'paragraph',
  content: content.flat(),
});

export const heading = (level: number, ...content: AdfInline[][]): AdfBlock => ({
  type: 'heading',
  attrs: { level },
  content: content.flat(),
});

export const bulletList = (items: AdfBlock[][]): AdfBlock => ({
  type: 'bulletList',
  content: items.map((content) => ({ type: 'listItem', content })),
});

export function codeBlock(value: string, language?: string): AdfBlock {
  return {
    type: 'codeBlock',
    attrs: language ? { language } : {},
    content: value === '' ? [] : [{ type: 'text', text: value }],
  };
}

/** Multi-line plain text as one paragraph, lines kept with hard breaks. */
export function lines(value: string, marks: AdfMark[] = []): AdfInline[] {
  return value
    .split(/\r\n|\r|\n/)
    .flatMap((line, i): AdfInline[] =>
      i === 0 ? text(line, marks) : [{ type: 'hardBreak' }, ...text(line, marks)],
    );
}

/** The document's words without markup (what an edit compares, and tests read). */
export function plainText(node: AdfDoc | AdfBlock | AdfListItem | AdfInline): string {
  if (node.type === 'text') return node.text;
  if (node.type === 'hardBreak') return '\n';
  if (node.type === 'mention') return node.attrs.text;
  if (node.type === 'rule') return '---';
  const parts = (node.content as (AdfBlock | AdfListItem | AdfInline)[]).map(plainText);
  const inlineOnly = node.type === 'paragraph' || node.type === 'heading';
  return parts.join(inlineOnly ? '' : '\n');
}
