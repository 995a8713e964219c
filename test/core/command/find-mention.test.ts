import { describe, expect, it } from 'vitest';
import { findAddressedWords, maskInlineCode } from '../../../src/core/command/find-mention.js';
import { parseCommand } from '../../../src/core/command/parse-command.js';

const hidden = (n: number) => '\u0000'.repeat(n);

describe('maskInlineCode', () => {
  it.each([
    ['no code', 'no code'],
    ['a `b` c', `a ${hidden(3)} c`],
    ['a ``b ` c`` d', `a ${hidden(9)} d`],
    ['a `b c', 'a `b c'],
    ['`x` and `y`', `${hidden(3)} and ${hidden(3)}`],
    ['``` x `', '``` x `'],
    ['`` a ``` b `` c', `${hidden(13)} c`],
    ['` a `` b `', hidden(10)],
  ])('%j', (line, masked) => {
    expect(maskInlineCode(line)).toBe(masked);
    expect(maskInlineCode(line)).toHaveLength(line.length);
  });
});

describe('findAddressedWords', () => {
  it.each([
    ['@bot go', { words: 'go', explicit: false }],
    ['@bot', { words: '', explicit: true }],
    ['hi\n@bot', { words: '', explicit: false }],
    ['/cmd', { words: '', explicit: true }],
    ['x\n/cmd go\nmore', { words: 'go\nmore', explicit: false }],
    ['`code` /cmd go', undefined],
    ['<!-- c -->/cmd go', undefined],
    ['nothing', undefined],
  ])('%j', (text, expected) => {
    const found = findAddressedWords(text, 'bot', '/cmd');
    if (expected === undefined) {
      expect(found).toBeUndefined();
    } else {
      expect(found?.words).toBe(expected.words);
      if (expected.words === '') expect(found?.explicit).toBe(expected.explicit);
    }
  });

  it('an empty handle or command word matches nothing', () => {
    expect(findAddressedWords('@ go\n/x', '', '')).toBeUndefined();
    expect(findAddressedWords('@@ go', '@', '')).toBeUndefined();
  });
});

describe('bounded cost on hostile input', () => {
  const cases: [string, string][] = [
    [
      'backtick runs of every length',
      Array.from({ length: 400 }, (_, i) => '`'.repeat((i % 40) + 1)).join(' '),
    ],
    ['many unclosed Slack mentions', '<@agent-relay|'.repeat(5000)],
    ['many unclosed HTML comments', '<!-- '.repeat(10_000)],
    ['many option brackets', '[model=x, '.repeat(5000)],
    ['many quotes', 'title="'.repeat(5000)],
    ['one long line', `@agent-relay ${'word '.repeat(12_000)}`],
    ['many bot mentions', '@agent-relay '.repeat(5000) + 'go'],
    ['many lines', '> q\n'.repeat(20_000) + '\n@agent-relay go'],
  ];
  it.each(cases)('%s', (_name, text) => {
    const started = performance.now();
    for (const addressed of [true, false]) {
      parseCommand({
        text,
        addressed,
        platform: 'github',
        botHandle: 'agent-relay',
        maxPromptChars: 100_000,
      });
    }
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
