/** The one clipper and the one RegExp escape every platform and the runs share. */
import { describe, expect, it } from 'vitest';
import { clip, escapeRegExp } from '../../src/core/text.js';

describe('clip', () => {
  it.each([
    ['abcdef', 4, 'abc…'],
    ['ab😀cd', 4, 'ab…'],
    ['abc', 3, 'abc'],
    ['abc', 1, '…'],
    ['abc', 0, ''],
    ['', 0, ''],
  ])('clip(%j, %i) is %j', (text, max, expected) => {
    expect(clip(text, max)).toBe(expected);
    expect(clip(text, max).length).toBeLessThanOrEqual(Math.max(max, 0));
  });
});

describe('escapeRegExp', () => {
  it.each(['agent-relay', 'a.b*c', '/agent', '[x](y)', 'a+b?c^$|\\d{2}'])(
    'matches %j literally and nothing else',
    (text) => {
      const pattern = new RegExp(`^${escapeRegExp(text)}$`);
      expect(pattern.test(text)).toBe(true);
      expect(pattern.test(`${text}x`)).toBe(false);
    },
  );
});
