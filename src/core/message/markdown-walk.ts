/**
 * Markdown as the agent wrote it, re-written for a platform by that platform's rules: the
 * text is parsed once (marked's lexer, never rendered to HTML), and each block and inline
 * piece is handed to the rules, which escape text and write their own markup. Raw HTML and
 * anything the rules do not know come out as escaped text, so nothing the agent writes can
 * become markup the platform would act on.
 */
import { Lexer } from 'marked';

/** The token fields the walks read (marked's tokens carry more); Jira's ADF walk reads them too. */
export interface MarkdownToken {
  type: string;
  raw: string;
  text?: string;
  tokens?: MarkdownToken[];
  items?: MarkdownToken[];
  href?: string;
  ordered?: boolean;
  start?: number | '';
  lang?: string;
  depth?: number;
}

export interface MarkdownRules {
  text(plain: string): string;
  strong(inner: string): string;
  em(inner: string): string;
  strike(inner: string): string;
  code(plain: string): string;
  link(label: string, href: string): string;
  codeBlock(plain: string, lang: string): string;
  heading(inner: string): string;
  quote(inner: string): string;
  /** One list item's line; `marker` is "1." for ordered lists, otherwise undefined. */
  listItem(inner: string, marker: string | undefined): string;
  rule(): string;
}

function inline(tokens: readonly MarkdownToken[] | undefined, rules: MarkdownRules): string {
  if (!tokens) return '';
  return tokens
    .map((t) => {
      switch (t.type) {
        case 'strong':
          return rules.strong(inline(t.tokens, rules));
        case 'em':
          return rules.em(inline(t.tokens, rules));
        case 'del':
          return rules.strike(inline(t.tokens, rules));
        case 'codespan':
          return rules.code(t.text ?? '');
        case 'link':
          return rules.link(plainOf(t), t.href ?? '');
        case 'image':
          return rules.link(t.text ?? 'image', t.href ?? '');
        case 'br':
          return '\n';
        case 'text':
          return t.tokens ? inline(t.tokens, rules) : rules.text(t.text ?? '');
        case 'escape':
          return rules.text(t.text ?? '');
        default:
          return rules.text(t.raw);
      }
    })
    .join('');
}

/** A token's words without markup (a link's label). */
function plainOf(token: MarkdownToken): string {
  if (!token.tokens) return token.text ?? token.raw;
  return token.tokens.map(plainOf).join('');
}

function blocks(tokens: readonly MarkdownToken[], rules: MarkdownRules): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case 'space':
        break;
      case 'paragraph':
        out.push(inline(t.tokens, rules));
        break;
      case 'heading':
        out.push(rules.heading(inline(t.tokens, rules)));
        break;
      case 'code':
        out.push(rules.codeBlock(t.text ?? '', t.lang ?? ''));
        break;
      case 'blockquote':
        out.push(rules.quote(blocks(t.tokens ?? [], rules).join('\n')));
        break;
      case 'list': {
        const first = typeof t.start === 'number' ? t.start : 1;
        out.push(
          (t.items ?? [])
            .map((item, i) =>
              rules.listItem(
                blocks(item.tokens ?? [], rules).join(' '),
                t.ordered ? `${first + i}.` : undefined,
              ),
            )
            .join('\n'),
        );
        break;
      }
      case 'hr':
        out.push(rules.rule());
        break;
      case 'text':
        out.push(t.tokens ? inline(t.tokens, rules) : rules.text(t.text ?? ''));
        break;
      default:
        // Raw HTML, tables and whatever comes next: shown as the text it is.
        out.push(rules.text(t.raw.trim()));
    }
  }
  return out;
}

/** `markdown` re-written by `rules`, blocks separated by a blank line. */
export function rewriteMarkdown(markdown: string, rules: MarkdownRules): string {
  const tokens = Lexer.lex(markdown) as unknown as MarkdownToken[];
  return blocks(tokens, rules)
    .filter((b) => b.trim() !== '')
    .join('\n\n');
}
