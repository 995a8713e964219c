/** Signed state: what one key sealed opens unchanged; anything else opens to nothing. */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSignedState, equalText, purposeKey } from '../../src/platform/signed-state.js';

describe('signed state', () => {
  const signed = createSignedState(purposeKey('a-secret-of-the-relay-0123456789', 'test v1'));

  it('opens what it sealed', () => {
    const value = { exp: 1_700_000_600_000, n: 'abc', nested: { list: [1, 2] } };
    expect(signed.open(signed.seal(value))).toEqual(value);
  });

  it('refuses a changed payload, another purpose, a cut token, junk and a huge token', () => {
    const token = signed.seal({ team: 'T1' });
    const [, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ team: 'T2' })).toString('base64url');
    expect(signed.open(`${forged}.${mac}`)).toBeUndefined();
    const other = createSignedState(purposeKey('a-secret-of-the-relay-0123456789', 'test v2'));
    expect(other.open(token)).toBeUndefined();
    expect(signed.open(`${token}.x`)).toBeUndefined();
    expect(signed.open(token.split('.')[0])).toBeUndefined();
    expect(signed.open(undefined)).toBeUndefined();
    expect(signed.open('')).toBeUndefined();
    expect(signed.open(`${'a'.repeat(5000)}.${mac}`)).toBeUndefined();
  });

  it('refuses a payload that is no JSON even with a good MAC', () => {
    const key = purposeKey('s', 'p');
    const raw = Buffer.from('not json').toString('base64url');
    const mac = createHmac('sha256', key).update(raw).digest('base64url');
    expect(createSignedState(key).open(`${raw}.${mac}`)).toBeUndefined();
  });

  it('compares text in constant time, length first', () => {
    expect(equalText('abc', 'abc')).toBe(true);
    expect(equalText('abc', 'abd')).toBe(false);
    expect(equalText('abc', 'abcd')).toBe(false);
  });
});
