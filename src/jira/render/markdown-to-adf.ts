/**
 * Markdown as the agent wrote it, as ADF nodes: parsed once with marked's lexer (the parser
 * the other renderers use, never rendered to HTML), each block and inline piece mapped to
 * its ADF node: paragraphs, emphasis, strong, strike, code, links (http(s) and mailto
 * only), lists, code blocks, headings, quotes and rules. Raw HTML, tables and anything else
 * come out as the text they are. Written here rather than taken from a library: the ones
 * published convert to Jira's wiki markup or pull a whole editor, and this is one walk over
 * tokens the relay already parses.
 */
import { Lexer } from 'marked';
import type { MarkdownToken } from '../../core/message/markdown-walk.js';
import type { AdfBlock, AdfInline, AdfListItem, AdfMark } from '../api/adf.js';
import { codeBlock, text } from '../api/adf.js';

type Token = MarkdownToken;

/** ADF lets `code` stand with `link` only. */
function addMark(marks: AdfMark[], mark: AdfMark): AdfMark[] {
  if (marks.some((m) => m.type === 'code')) return mark.type === 'link' ? [...marks, mark] : marks;
  if (mark.type === 'code') return [...marks.filter((m) => m.type === 'link'), mark];
  return marks.some((m) => m.type === mark.type) ? marks : [...marks, mark];
}

const SAFE_HREF = /^(https?:|mailto:)/i;

function inline(tokens: readonly Token[] | undefined, marks: AdfMark[]): AdfInline[] {
  if (!tokens) return [];
  return tokens.flatMap((t): AdfInline[] => {
    switch (t.type) {
      case 'strong':
        return inline(t.tokens, addMark(marks, { type: 'strong' }));
      case 'em':
        return inline(t.tokens, addMark(marks, { type: 'em' }));
      case 'del':
        return inline(t.tokens, addMark(marks, { type: 'strike' }));
      case 'codespan':
        return text(t.text ?? '', addMark(marks, { type: 'code' }));
      case 'link':
      case 'image': {
        const href = t.href ?? '';
        const label = t.type === 'image' ? (t.text ?? 'image') : undefined;
        if (!SAFE_HREF.test(href))
          return label === undefined ? inline(t.tokens, marks) : text(label, marks);
        const linked = addMark(marks, { type: 'link', attrs: { href } });
        return label === undefined ? inline(t.tokens, linked) : text(label, linked);
      }
      case 'br':
        return [{ type: 'hardBreak' }];
      case 'text':
        return t.tokens ? inline(t.tokens, marks) : text(t.text ?? '', marks);
      case 'escape':
        return text(t.text ?? '', marks);
      default:
        return text(t.raw, marks);
    }
  });
}

/** The lexer keeps HTML entities in text (`&amp;`); ADF text is the characters themselves. */
function decodeEntities(nodes: AdfInline[]): AdfInline[] {
  return nodes.map((n) =>
    n.type === 'text'
      ? {
          ...n,
          text: n.text
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&quot;/g, '"')
            .replace(/&#39;/g, "'")
            .replace(/&amp;/g, '&'),
        }
      : n,
  );
}

const paragraphOf = (content: AdfInline[]): AdfBlock[] =>
  content.length === 0 ? [] : [{ type: 'paragraph', content: decodeEntities(content) }];

function blocks(tokens: readonly Token[]): AdfBlock[] {
  return tokens.flatMap((t): AdfBlock[] => {
    switch (t.type) {
      case 'space':
        return [];
      case 'paragraph':
        return paragraphOf(inline(t.tokens, []));
      case 'heading':
        return [
          {
            type: 'heading',
            attrs: { level: Math.min(6, Math.max(1, t.depth ?? 1)) },
            content: decodeEntities(inline(t.tokens, [])),
          },
        ];
      case 'code':
        return [codeBlock(t.text ?? '', t.lang?.trim() || undefined)];
      case 'blockquote': {
        const inner = blocks(t.tokens ?? []).filter(
          (b) =>
            b.type === 'paragraph' ||
            b.type === 'bulletList' ||
            b.type === 'orderedList' ||
            b.type === 'codeBlock',
        );
        return inner.length === 0 ? [] : [{ type: 'blockquote', content: inner }];
      }
      case 'list': {
        const items: AdfListItem[] = (t.items ?? []).map((item) => {
          const content = blocks(item.tokens ?? []).filter((b) => b.type !== 'heading');
          return {
            type: 'listItem',
            content: content.length > 0 ? content : [{ type: 'paragraph', content: [] }],
          };
        });
        if (items.length === 0) return [];
        if (!t.ordered) return [{ type: 'bulletList', content: items }];
        const order = typeof t.start === 'number' && t.start >= 1 ? t.start : 1;
        return [{ type: 'orderedList', attrs: { order }, content: items }];
      }
      case 'hr':
        return [{ type: 'rule' }];
      case 'text':
        return paragraphOf(t.tokens ? inline(t.tokens, []) : text(t.text ?? '', []));
      default:
        // Raw HTML, tables and whatever comes next: the text it is.
        return paragraphOf(text(t.raw.trim(), []));
    }
  });
}

/** The ADF blocks of a Markdown text. */
export function markdownToAdf(markdown: string): AdfBlock[] {
  return blocks(Lexer.lex(markdown) as unknown as Token[]);
}
