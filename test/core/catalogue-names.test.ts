/** The rule of naming an environment or a model: id, name, then an unambiguous prefix. */
import { describe, expect, it } from 'vitest';
import { describeNamed, lookupName, MAX_CLOSE_NAMES } from '../../src/core/catalogue-names.js';
import { eachMapsTo } from '../helpers/cases.js';

const ENVS = [
  { id: 'env-web-app', name: 'Web App' },
  { id: 'env-web-api', name: 'Web API' },
  { id: 'env-payments', name: 'Payments' },
  { id: 'Env_Upper', name: '' },
];
const MODELS = [
  { id: 'claude-4-6-sonnet', name: 'Claude Sonnet 4.6' },
  { id: 'claude-4-6-opus', name: 'Claude Opus 4.6' },
  { id: 'gpt-5-4-high', name: 'GPT-5.4' },
];

const found = (given: string, entries = ENVS) => {
  const r = lookupName(given, entries);
  return r.kind === 'found' ? r.entry.id : r.kind;
};

describe('lookupName', () => {
  eachMapsTo(
    (given) => found(given),
    [
      ['env-payments', 'env-payments'], // the id
      ['Env_Upper', 'Env_Upper'], // the id, as given
      ['env_upper', 'Env_Upper'], // the id, any case, `_` as `-`
      ['payments', 'env-payments'], // the name
      ['WEB-APP', 'env-web-app'], // the name, spaces as `-`, any case
      ['web_api', 'env-web-api'],
      ['pay', 'env-payments'], // a prefix only one has
      ['env-pay', 'env-payments'], // a prefix of the id
      ['web', 'ambiguous'],
      ['web-a', 'ambiguous'],
      ['nowhere', 'unknown'],
      ['', 'unknown'],
    ],
  );

  it('a word of the name when no name or id starts that way', () => {
    expect(found('sonnet', MODELS)).toBe('claude-4-6-sonnet');
    expect(found('opus', MODELS)).toBe('claude-4-6-opus');
    expect(found('claude', MODELS)).toBe('ambiguous');
    expect(found('gpt', MODELS)).toBe('gpt-5-4-high');
  });

  it('the candidates of an ambiguous name, and the close names of an unknown one', () => {
    expect(lookupName('web', ENVS)).toEqual({ kind: 'ambiguous', candidates: ENVS.slice(0, 2) });
    const typo = lookupName('paymnts', ENVS);
    expect(typo.kind === 'unknown' && typo.close.map((e) => e.id)).toEqual(['env-payments']);
    // Nothing close: everything is offered, up to the limit.
    const many = Array.from({ length: 20 }, (_, i) => ({ id: `m${i}`, name: `Model ${i}` }));
    const far = lookupName('zzzzzzzzzzzz', many);
    expect(far.kind === 'unknown' && far.close).toHaveLength(MAX_CLOSE_NAMES);
  });

  it('describes an entry by name and id, or the id alone', () => {
    expect(describeNamed(ENVS[0]!)).toBe('Web App (env-web-app)');
    expect(describeNamed(ENVS[3]!)).toBe('Env_Upper');
  });
});
