import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyOptions } from '../helpers/property.js';
import {
  InvalidThreadAddressError,
  decodeThreadKey,
  encodeThreadKey,
  platformOf,
  settingsScopeOf,
} from '../../src/core/thread-key.js';
import type { ThreadAddress } from '../../src/core/thread-key.js';

const slack = (team: string, channel: string, threadTs: string): ThreadAddress => ({
  platform: 'slack',
  team,
  channel,
  threadTs,
});
const github = (
  owner: string,
  repo: string,
  number: number,
  reviewCommentId?: number,
): ThreadAddress =>
  reviewCommentId === undefined
    ? { platform: 'github', owner, repo, number }
    : { platform: 'github', owner, repo, number, reviewCommentId };

describe('thread keys', () => {
  it.each<[string, ThreadAddress, string]>([
    [
      'slack:T01ABC:C02DEF:1712345678.123456',
      slack('T01ABC', 'C02DEF', '1712345678.123456'),
      'slack:T01ABC:C02DEF',
    ],
    ['slack:T1:D9:', slack('T1', 'D9', ''), 'slack:T1:D9'],
    ['slack:E0ENT:G123:1.2', slack('E0ENT', 'G123', '1.2'), 'slack:E0ENT:G123'],
    [
      'github:octo-org/hello.world#42',
      github('octo-org', 'hello.world', 42),
      'github:octo-org/hello.world',
    ],
    ['github:o/r_-.x#7/r123456789', github('o', 'r_-.x', 7, 123456789), 'github:o/r_-.x'],
    ['github:Octo/Repo#1', github('Octo', 'Repo', 1), 'github:Octo/Repo'],
  ])('%s decodes, re-encodes and scopes', (key, addr, scope) => {
    expect(decodeThreadKey(key)).toEqual(addr);
    expect(encodeThreadKey(addr)).toBe(key);
    expect(settingsScopeOf(key)).toBe(scope);
    expect(settingsScopeOf(addr)).toBe(scope);
    expect(platformOf(key)).toBe(addr.platform);
  });

  it.each([
    '',
    'slack',
    'slack:T1:C1',
    'slack:T1:C1:1.2:extra',
    'slack::C1:1.2',
    'slack:T1::1.2',
    'slack:T-1:C1:1.2',
    'slack:T1:C1:1712345678',
    'slack:T1:C1:abc.def',
    'SLACK:T1:C1:1.2',
    'github:o/r',
    'github:o/r#',
    'github:o/r#0',
    'github:o/r#-1',
    'github:o/r#01',
    'github:o/r#1.5',
    'github:o/r#99999999999999999',
    'github:o/r#1/r',
    'github:o/r#1/r0',
    'github:o/r#1/c5',
    'github:o/r#1/r5/r6',
    'github:-o/r#1',
    'github:o_o/r#1',
    'github:o/./#1',
    'github:o/..#1',
    'github:o/#1',
    'github:/r#1',
    'github:o/r/x#1',
    'github:o/r#1 ',
    'gitlab:o/r#1',
    'github:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/r#1',
  ])('rejects %j', (key) => {
    expect(decodeThreadKey(key)).toBeUndefined();
    expect(platformOf(key)).toBeUndefined();
    expect(settingsScopeOf(key)).toBeUndefined();
  });

  it.each<ThreadAddress>([
    slack('T:1', 'C1', '1.2'),
    slack('T1', 'C1', 'x'),
    slack('', 'C1', ''),
    github('o/x', 'r', 1),
    github('o', 'r#', 1),
    github('o', 'r', 0),
    github('o', 'r', 1.5),
    github('o', 'r', 1, -3),
    github('o', 'r', Number.MAX_SAFE_INTEGER + 1),
  ])('encode refuses a malformed address %j', (addr) => {
    expect(() => encodeThreadKey(addr)).toThrow(InvalidThreadAddressError);
    try {
      encodeThreadKey(addr);
    } catch (err) {
      expect((err as InvalidThreadAddressError).code).toBe('invalid_thread_address');
    }
  });
});

const alnum = fc.stringMatching(/^[A-Za-z0-9]{1,20}$/);
const slackAddress = fc.record({
  platform: fc.constant('slack' as const),
  team: alnum,
  channel: alnum,
  threadTs: fc.oneof(fc.constant(''), fc.stringMatching(/^\d{1,12}\.\d{1,8}$/)),
});
const githubAddress = fc
  .record({
    owner: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/),
    repo: fc.stringMatching(/^[A-Za-z0-9._-]{1,100}$/).filter((r) => r !== '.' && r !== '..'),
    number: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    reviewCommentId: fc.option(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), {
      nil: undefined,
    }),
  })
  .map(({ reviewCommentId, ...rest }): ThreadAddress =>
    reviewCommentId === undefined
      ? { platform: 'github', ...rest }
      : { platform: 'github', ...rest, reviewCommentId },
  );
const address: fc.Arbitrary<ThreadAddress> = fc.oneof(slackAddress, githubAddress);

/** Any UTF-16 text, biased towards the characters keys are made of. */
const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...'slack:github/#r.0123456789TC-_ '.split('')),
    fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  ),
  maxLength: 60,
});

describe('thread key properties', () => {
  it('decode(encode(a)) equals a', () => {
    fc.assert(
      fc.property(address, (a) => {
        expect(decodeThreadKey(encodeThreadKey(a))).toEqual(a);
      }),
      propertyOptions(),
    );
  });

  it('encode(decode(k)) equals k for every key that decodes', () => {
    const keyish = fc.oneof(
      address.map(encodeThreadKey),
      anyText.map((s) => `slack:${s}`),
      anyText.map((s) => `github:${s}`),
      anyText,
    );
    fc.assert(
      fc.property(keyish, (key) => {
        const addr = decodeThreadKey(key);
        if (addr !== undefined) expect(encodeThreadKey(addr)).toBe(key);
      }),
      propertyOptions(),
    );
  });

  it('decode never throws, on any string', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const addr = decodeThreadKey(s);
        expect(settingsScopeOf(s) === undefined).toBe(addr === undefined);
      }),
      propertyOptions(),
    );
  });

  it('the scope is a prefix of the key', () => {
    fc.assert(
      fc.property(address, (a) => {
        const key = encodeThreadKey(a);
        expect(key.startsWith(settingsScopeOf(a))).toBe(true);
      }),
      propertyOptions(),
    );
  });
});

describe('Jira thread keys', () => {
  const jira = (site: string, issueKey: string): ThreadAddress => ({
    platform: 'jira',
    site,
    issueKey,
  });

  it('encodes `jira:{site}:{issue key}` and decodes it back', () => {
    const addr = jira('acme.atlassian.net', 'PROJ-123');
    const key = encodeThreadKey(addr);
    expect(key).toBe('jira:acme.atlassian.net:PROJ-123');
    expect(decodeThreadKey(key)).toEqual(addr);
    expect(platformOf(key)).toBe('jira');
  });

  it('scopes settings to the project of the issue', () => {
    expect(settingsScopeOf('jira:acme.atlassian.net:PROJ-123')).toBe(
      'jira:acme.atlassian.net:PROJ',
    );
    expect(settingsScopeOf('jira:127.0.0.1:AB_2-7')).toBe('jira:127.0.0.1:AB_2');
  });

  it.each([
    'jira:acme.atlassian.net:PROJ',
    'jira:acme.atlassian.net:PROJ-0',
    'jira:acme.atlassian.net:1PROJ-3',
    'jira::PROJ-3',
    'jira:acme..net:PROJ-3',
    'jira:acme.atlassian.net:PROJ-3:x',
    'jira:-acme.net:PROJ-3',
  ])('rejects %s', (key) => {
    expect(decodeThreadKey(key)).toBeUndefined();
  });

  it('refuses to encode a malformed address', () => {
    expect(() => encodeThreadKey(jira('acme.atlassian.net', 'proj 1'))).toThrow(
      InvalidThreadAddressError,
    );
  });
});
