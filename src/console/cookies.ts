/** Reading the Cookie header and writing Set-Cookie values (HTTP-only, SameSite=Lax). */
import type { IncomingMessage } from 'node:http';

export function readCookies(req: IncomingMessage): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    try {
      out.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // A malformed value is as good as none.
    }
  }
  return out;
}

export interface CookieOptions {
  secure: boolean;
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  path?: string;
}

/**
 * HTTP-only (no script reads it) and SameSite=Lax: sent on top-level navigations (the sign-in
 * redirect back from Slack or GitHub) but never on cross-site POSTs or fetches.
 */
export function setCookie(name: string, value: string, options: CookieOptions): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path ?? '/console'}`,
    `Max-Age=${options.maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}
