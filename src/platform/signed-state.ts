/**
 * Signed state: a small value the relay hands out (an OAuth `state`, a form's private
 * metadata, a sign-in cookie) and later takes back only unchanged. `<payload>.<mac>`, both
 * base64url, the MAC an HMAC-SHA256 over the payload. Not encrypted: never seal a secret.
 * Freshness is the caller's (a time inside the value, checked when opened).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Longer tokens are refused before any work (a cookie or form field of junk). */
const MAX_TOKEN_CHARS = 4096;

export interface SignedState {
  seal(value: unknown): string;
  /** The value, when the token is one this key sealed; undefined otherwise. */
  open(token: string | undefined): unknown;
}

/** Two strings equal, compared in constant time. */
export function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Sealed with `key` (use one key per purpose: derive it from a secret and a label). */
export function createSignedState(key: string | Buffer): SignedState {
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    seal(value) {
      const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${payload}.${mac(payload)}`;
    },
    open(token) {
      if (!token || token.length > MAX_TOKEN_CHARS) return undefined;
      const [payload, tag, ...rest] = token.split('.');
      if (!payload || !tag || rest.length > 0 || !equalText(tag, mac(payload))) return undefined;
      try {
        return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}

/** A key for one purpose, derived from a secret the relay holds. */
export function purposeKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(purpose).digest();
}
