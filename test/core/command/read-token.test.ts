import { describe, expect, it } from 'vitest';
import { checkOptionValue } from '../../../src/core/command/option-values.js';
import { readToken, unwrapQuoted } from '../../../src/core/command/read-token.js';
import type { OptionKey } from '../../../src/core/message/message-model.js';
import { eachMapsTo } from '../../helpers/cases.js';

describe('readToken', () => {
  it.each([
    ['  model=x rest', { kind: 'pair', key: 'model', value: 'x', start: 2, end: 9 }],
    ['Title="a b" rest', { kind: 'pair', key: 'title', value: 'a b', start: 0, end: 11 }],
    ['k=', { kind: 'pair', key: 'k', value: '', start: 0, end: 2 }],
    ['word rest', { kind: 'word', text: 'word', start: 0, end: 4 }],
    ['=x', { kind: 'word', text: '=x', start: 0, end: 2 }],
    ['1=x', { kind: 'word', text: '1=x', start: 0, end: 3 }],
    ['[x] rest', { kind: 'word', text: '[x]', start: 0, end: 3 }],
    ['   ', { kind: 'end', start: 3 }],
    ['k="open', { kind: 'error', code: 'unbalanced_quote' }],
    ['[k=v', { kind: 'error', code: 'unbalanced_bracket' }],
    ['[k=v, w]', { kind: 'error', code: 'malformed_options' }],
    ['k="v"w', { kind: 'error', code: 'malformed_options' }],
  ])('%j', (text, expected) => {
    expect(readToken(text, 0)).toMatchObject(expected);
  });

  it('reads a group with quoted separators', () => {
    const token = readToken('[a=1, b="x, ]y" c=‘z’] tail', 0);
    expect(token).toMatchObject({ kind: 'group', start: 0, end: 22 });
    if (token.kind !== 'group') throw new Error('not a group');
    expect(token.pairs.map((p) => [p.key, p.value])).toEqual([
      ['a', '1'],
      ['b', 'x, ]y'],
      ['c', 'z'],
    ]);
  });
});

describe('unwrapQuoted', () => {
  eachMapsTo(unwrapQuoted, [
    ['"a b"', 'a b'],
    ["  ' a '  ", 'a'],
    ['“x”', 'x'],
    ['"a" "b"', '"a" "b"'],
    ['"', '"'],
    ['""', ''],
    ['"a', '"a'],
    ['plain', 'plain'],
  ]);
});

describe('checkOptionValue', () => {
  it.each<[OptionKey, string, string | undefined]>([
    ['model', 'claude-4.5-sonnet', 'claude-4.5-sonnet'],
    ['model', 'openai/gpt-5:high', 'openai/gpt-5:high'],
    ['model', 'gpt 5', undefined],
    ['model', '-x', undefined],
    ['env', ' env_01 ', 'env_01'],
    ['mode', 'PLAN', 'plan'],
    ['mode', 'orchestrate', 'orchestrate'],
    ['mode', ' Normal ', 'normal'],
    ['mode', 'fast', undefined],
    ['skill', 'my-org/repo.name:skill_1', 'my-org/repo.name:skill_1'],
    ['skill', 'o/r:a/b/SKILL.md', 'o/r:a/b/SKILL.md'],
    ['skill', 'o/r:SKILL.md', 'o/r:SKILL.md'],
    ['skill', 'o/r:a/b', undefined],
    ['skill', 'o/r:', undefined],
    ['skill', '-o/r:s', undefined],
    ['factory', '@fe', 'fe'],
    ['factory', 'fac_123', 'fac_123'],
    ['factory', 'a b', undefined],
    ['name', ' my  agent ', 'my agent'],
    ['title', 'x'.repeat(256), 'x'.repeat(256)],
    ['title', 'x'.repeat(257), undefined],
    ['title', '  ', undefined],
  ])('%s=%j', (key, raw, expected) => {
    const check = checkOptionValue(key, raw);
    if (expected === undefined) {
      expect(check.ok).toBe(false);
      if (!check.ok) expect(check.message).toContain(key);
    } else {
      expect(check).toEqual({ ok: true, value: expected });
    }
  });
});
