import { describe, expect, it } from 'vitest';
import { deriveTitle } from '../../../src/core/command/derive-title.js';
import { eachMapsTo } from '../../helpers/cases.js';

describe('deriveTitle', () => {
  eachMapsTo(
    (prompt) => deriveTitle(prompt),
    [
      ['Fix the build', 'Fix the build'],
      ['  Fix   the\tbuild  \nsecond line', 'Fix the build'],
      ['\n\n   \nFix it', 'Fix it'],
      ['```ts\nconst x = 1;\n```', 'const x = 1;'],
      ['## Fix **the** `parser`', 'Fix the parser'],
      ['> quoted ask', 'quoted ask'],
      ['- [ ] first task', 'first task'],
      ['1. step one', 'step one'],
      ['See [the docs](https://x.y/z) and ![img](a.png)', 'See the docs and img'],
      ['ping <@U123|alice> about <https://x.y|the page>', 'ping @alice about the page'],
      ['<!here> deploy <https://x.y/z>', '@here deploy https://x.y/z'],
      ['a &amp; b &lt;c&gt;', 'a & b <c>'],
      ['snake_case_name stays', 'snake_case_name stays'],
      ['```\n```', ''],
      ['', ''],
      ['--- \n***', ''],
    ],
  );

  it('cuts at a word boundary with an ellipsis, within max', () => {
    const title = deriveTitle(
      'Refactor the command parser so that options may lead any prompt',
      30,
    );
    expect(title).toBe('Refactor the command parser…');
    expect(Array.from(title).length).toBeLessThanOrEqual(30);
  });

  it('drops trailing punctuation before the ellipsis', () => {
    expect(deriveTitle('Fix one, then two, then three and four', 20)).toBe('Fix one, then two…');
  });

  it('hard-cuts one long word', () => {
    expect(deriveTitle('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('never splits an emoji (code points, not UTF-16 units)', () => {
    const title = deriveTitle(`a${'🚀'.repeat(20)}`, 5);
    expect(title).toBe('a🚀🚀🚀…');
  });

  it('defaults to 80 characters', () => {
    const title = deriveTitle('word '.repeat(100));
    expect(Array.from(title).length).toBeLessThanOrEqual(80);
    expect(title.endsWith('word…')).toBe(true);
  });
});
