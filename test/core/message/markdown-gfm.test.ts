/**
 * The GitHub-flavoured Markdown rules GitHub and Linear share (pure): fences the text inside
 * cannot close, links only to http(s), punctuation escaped with either way of keeping HTML out.
 */
import { describe, expect, it } from 'vitest';
import {
  codeBlock,
  codeSpan,
  escapeLineStarts,
  escapeMarkdownSpecials,
  markdownLink,
  markdownRules,
} from '../../../src/core/message/markdown-gfm.js';
import { rewriteMarkdown } from '../../../src/core/message/markdown-walk.js';

describe('the shared Markdown rules', () => {
  it('codeSpan outgrows backtick runs, pads an edge backtick and stays on one line', () => {
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x')).toBe('`` `x ``');
    expect(codeSpan('one\ntwo')).toBe('`one two`');
  });

  it('codeBlock uses a fence longer than any inside', () => {
    expect(codeBlock('x\n```\ny')).toBe('````\nx\n```\ny\n````');
    expect(codeBlock('a `b` ``c``')).toBe('```\na `b` ``c``\n```');
    expect(codeBlock('plain', 'json')).toBe('```json\nplain\n```');
  });

  it('escapeLineStarts keeps every line from becoming a heading, list, quote or rule', () => {
    expect(escapeLineStarts('# Title\n  - item\n1. first\n2) second\n> quoted\n=== \n+ plus')).toBe(
      '\\# Title\n  \\- item\n1\\. first\n2\\) second\n\\> quoted\n\\=== \n\\+ plus',
    );
    // Only at the start of a line: the same characters elsewhere are left alone.
    expect(escapeLineStarts('a - b # c 1. d')).toBe('a - b # c 1. d');
  });

  it('markdownLink links http(s) URLs only', () => {
    expect(markdownLink('PR', 'https://github.com/o/r/pull/1')).toBe(
      '[PR](https://github.com/o/r/pull/1)',
    );
    expect(markdownLink('bad', 'javascript:alert(1)')).toBe('bad');
    expect(markdownLink('spaced', 'https://a b')).toBe('spaced');
    expect(markdownLink('none', undefined)).toBe('none');
  });

  it('escapes punctuation, keeping HTML out with entities or with backslashes', () => {
    const text = '*a* _b_ [c] `d` |e| ~f~ \\ <g> & h';
    expect(escapeMarkdownSpecials(text, 'entities')).toBe(
      '\\*a\\* \\_b\\_ \\[c\\] \\`d\\` \\|e\\| \\~f\\~ \\\\ &lt;g&gt; &amp; h',
    );
    expect(escapeMarkdownSpecials(text, 'backslash')).toBe(
      '\\*a\\* \\_b\\_ \\[c\\] \\`d\\` \\|e\\| \\~f\\~ \\\\ \\<g\\> & h',
    );
  });

  it("markdownRules keep the agent's markup and escape the rest with the platform's escaping", () => {
    const rules = markdownRules((plain) => plain.toUpperCase());
    expect(
      rewriteMarkdown(
        '# Title\n\n**bold** _em_ `c` [x](javascript:y) [ok](https://e.x)\n\n```sh;rm\nls\n```',
        rules,
      ),
    ).toBe('**TITLE**\n\n**BOLD** _EM_ `c` X [OK](https://e.x)\n\n```\nls\n```');
  });
});
