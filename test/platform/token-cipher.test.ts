/** Installations are sealed with AES-256-GCM: what opens, and everything that must not. */
import { describe, expect, it } from 'vitest';
import { createTokenCipher, SealError } from '../../src/platform/token-cipher.js';

const KEY = Buffer.alloc(32, 1).toString('base64');
const OTHER = Buffer.alloc(32, 2).toString('base64');

describe('token cipher', () => {
  it('seals differently each time and opens with the same key and associated data', () => {
    const cipher = createTokenCipher(KEY);
    const a = cipher.seal('xoxb-dummy-token', 'slack::T1');
    const b = cipher.seal('xoxb-dummy-token', 'slack::T1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('xoxb');
    expect(cipher.open(a, 'slack::T1')).toBe('xoxb-dummy-token');
  });

  it.each([
    ['another key', (s: string) => createTokenCipher(OTHER).open(s, 'slack::T1')],
    ["another workspace's row", (s: string) => createTokenCipher(KEY).open(s, 'slack::T2')],
    [
      'a changed byte',
      (s: string) => {
        const parts = s.split('.');
        const body = Buffer.from(parts[3] ?? '', 'base64');
        body[0] = (body[0] ?? 0) ^ 1;
        parts[3] = body.toString('base64');
        return createTokenCipher(KEY).open(parts.join('.'), 'slack::T1');
      },
    ],
    ['not a seal at all', () => createTokenCipher(KEY).open('xoxb-plain', 'slack::T1')],
  ])('refuses to open with %s', (_what, open) => {
    const sealed = createTokenCipher(KEY).seal('xoxb-dummy-token', 'slack::T1');
    expect(() => open(sealed)).toThrow(SealError);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createTokenCipher(Buffer.alloc(16).toString('base64'))).toThrow(SealError);
  });
});
