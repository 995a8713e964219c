/**
 * Console sessions as signed cookies: the signed-in person and an expiry, HMAC-SHA256 under
 * the session key (CONSOLE_SESSION_SECRET, or a random key per process). Nothing is kept
 * on the server, so replicas sharing the key share sessions. Each session carries a random
 * nonce from which its CSRF token is derived; forms send the token back.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export interface Operator {
  /** `slack:T1/U1`, `github:octocat`, `local:admin`. */
  id: string;
  name: string;
  via: 'slack' | 'github' | 'local';
}

export interface Session {
  operator: Operator;
  expiresAt: number;
  nonce: string;
}

const SessionSchema = z.object({
  operator: z.object({
    id: z.string().min(1).max(200),
    name: z.string().max(200),
    via: z.enum(['slack', 'github', 'local']),
  }),
  expiresAt: z.number(),
  nonce: z.string().min(16).max(64),
});

export interface SessionSigner {
  issue(operator: Operator, now: number): { token: string; session: Session };
  /** The session a token carries, or undefined (bad signature, malformed, expired). */
  verify(token: string | undefined, now: number): Session | undefined;
  csrfToken(session: Session): string;
  checkCsrf(session: Session, token: unknown): boolean;
  /** Sign any small value (the sign-in state cookie); `open` checks and returns it. */
  seal(value: unknown): string;
  open(token: string | undefined): unknown;
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createSessionSigner(options: {
  secret?: string;
  lifetimeMs: number;
}): SessionSigner {
  const key = options.secret ?? randomBytes(32).toString('hex');
  const mac = (purpose: string, text: string) =>
    b64(createHmac('sha256', key).update(`${purpose}:${text}`).digest());

  const seal = (value: unknown) => {
    const body = b64(JSON.stringify(value));
    return `${body}.${mac('seal', body)}`;
  };
  const open = (token: string | undefined): unknown => {
    if (!token || token.length > 4096) return undefined;
    const [body, sig, extra] = token.split('.');
    if (!body || !sig || extra !== undefined || !equal(sig, mac('seal', body))) return undefined;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
    } catch {
      return undefined;
    }
  };

  return {
    issue(operator, now) {
      const session: Session = {
        operator,
        expiresAt: now + options.lifetimeMs,
        nonce: randomBytes(18).toString('base64url'),
      };
      return { token: seal({ session }), session };
    },
    verify(token, now) {
      const parsed = z.object({ session: SessionSchema }).safeParse(open(token));
      if (!parsed.success || parsed.data.session.expiresAt <= now) return undefined;
      return parsed.data.session;
    },
    csrfToken: (session) => mac('csrf', session.nonce),
    checkCsrf: (session, token) =>
      typeof token === 'string' && equal(token, mac('csrf', session.nonce)),
    seal,
    open,
  };
}
