import { describe, expect, it } from 'vitest';
import {
  codeSpan,
  escapeBlockQuote,
  escapeInline,
  link,
} from '../../../src/github/render/markdown-escape.js';
import { neutraliseMentions } from '../../../src/platform/mentions.js';
import { eachMapsTo } from '../../helpers/cases.js';

const Z = '\u200b';

describe('escapeInline', () => {
  eachMapsTo(escapeInline, [
    ['plain words', 'plain words'],
    ['*bold* _em_ ~~strike~~', '\\*bold\\* \\_em\\_ \\~\\~strike\\~\\~'],
    ['<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['a | b', 'a \\| b'],
    ['[click](https://evil)', '\\[click\\](https://evil)'],
    ['`code`', '\\`code\\`'],
    ['# heading', '\\# heading'],
    ['- item', '\\- item'],
    ['1. first', '1\\. first'],
    ['> quote', '&gt; quote'],
    ['Tom & Jerry', 'Tom &amp; Jerry'],
    ['two\nlines', 'two lines'],
    ['ping @bob and @octo-org/team', `ping @${Z}bob and @${Z}octo-org/team`],
    ['_it_@everyone', `\\_it\\_@${Z}everyone`],
    ['mail me@example.com', 'mail me@example.com'],
    ['issue #42 stays a link', 'issue #42 stays a link'],
  ]);
});

describe('other escapes', () => {
  it('clips long text so a rendered line never needs cutting', () => {
    expect(escapeInline('x'.repeat(5000))).toHaveLength(2000);
    expect(codeSpan('y'.repeat(5000))).toHaveLength(2002);
  });

  it('neutraliseMentions leaves e-mail addresses alone', () => {
    expect(neutraliseMentions('@a x@b.c (@d)')).toBe(`@${Z}a x@b.c (@${Z}d)`);
  });

  it('escapeBlockQuote quotes every line and escapes each', () => {
    expect(escapeBlockQuote('first\n\n# second\n```')).toBe(
      '> first\n>\n> \\# second\n> \\`\\`\\`',
    );
  });

  it('codeSpan outgrows backtick runs; in tables, text with a pipe is escaped instead', () => {
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x')).toBe('`` `x ``');
    // A pipe ends a table cell even inside code: such text is escaped instead.
    expect(codeSpan('a|b', { inTable: true })).toBe('a\\|b');
    expect(codeSpan('a|b')).toBe('`a|b`');
  });

  it('link only links http(s) URLs', () => {
    expect(link('PR *1*', 'https://github.com/o/r/pull/1')).toBe(
      '[PR \\*1\\*](https://github.com/o/r/pull/1)',
    );
    expect(link('bad', 'javascript:alert(1)')).toBe('bad');
    expect(link('none', undefined)).toBe('none');
  });
});
