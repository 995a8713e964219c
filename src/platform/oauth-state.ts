/**
 * The `state` of an OAuth install and the cookie that ties it to the browser that started
 * it: `{expiry}.{nonce}.{HMAC}`, signed with a key of the platform's own, good for ten
 * minutes, and accepted only from the browser holding the same state in its cookie (so a
 * link started by someone else cannot finish an install in your browser). Also the plain page an
 * install route answers with, and this relay's root as a browser on loopback reached it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const STATE_TTL_MS = 10 * 60_000;

export interface OAuthState {
  /** A new state, and the Set-Cookie value that binds it to this browser. */
  issue(now: number, secure: boolean): { state: string; cookie: string };
  /** The state's expiry when it is well signed, unexpired and the browser's own. */
  check(req: IncomingMessage, state: string, now: number): number | undefined;
}

export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const cut = part.indexOf('=');
    if (cut > 0 && part.slice(0, cut).trim() === name) return part.slice(cut + 1).trim();
  }
  return undefined;
}

/** A one-paragraph HTML page: what an install route says to the browser. */
export function installPage(res: ServerResponse, status: number, text: string): void {
  const body = `<!doctype html><meta charset="utf-8"><title>agent-relay</title><p>${text}</p>`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/** This relay's root as the browser reached it, only on loopback (the Host names no one else). */
export function loopbackRoot(req: IncomingMessage): string | undefined {
  const host = req.headers.host ?? '';
  return /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(host) ? `http://${host}` : undefined;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `key`: a secret of the platform's; `cookie`: its name; `path`: the routes that read it. */
export function createOAuthState(key: string, cookie: string, path: string): OAuthState {
  const sign = (text: string) => createHmac('sha256', key).update(text).digest('base64url');
  return {
    issue(now, secure) {
      const body = `${now + STATE_TTL_MS}.${randomBytes(16).toString('base64url')}`;
      const state = `${body}.${sign(body)}`;
      const flags = `Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${STATE_TTL_MS / 1000}`;
      return { state, cookie: `${cookie}=${state}; ${flags}${secure ? '; Secure' : ''}` };
    },
    check(req, state, now) {
      const held = cookieOf(req, cookie);
      if (held === undefined || !same(held, state)) return undefined;
      const cut = state.lastIndexOf('.');
      if (cut <= 0 || !same(state.slice(cut + 1), sign(state.slice(0, cut)))) return undefined;
      const expiresAt = Number(state.split('.')[0]);
      return Number.isFinite(expiresAt) && expiresAt > now ? expiresAt : undefined;
    },
  };
}
