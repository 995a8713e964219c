/**
 * Console sessions, kept server-side: the cookie carries a random token; the store keeps the
 * token's SHA-256 with who signed in, their role, why they were let in and until when. At
 * each request the grounds are checked against the current settings, so sign-out and
 * removal from a list end a session at its next request, on every replica. Each session has
 * its own random CSRF token, which forms send back.
 *
 * The signer seals small values (the sign-in state cookie) with HMAC-SHA256 under the
 * session key (CONSOLE_SESSION_SECRET, or a random key per process).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ConsoleRole, ConsoleSessionRepo } from '../core/ports/index.js';
import { createSignedState, equalText, purposeKey } from '../platform/signed-state.js';
import type { SignedState } from '../platform/signed-state.js';

export interface Operator {
  /** `slack:T1/U1`, `github:583231` (the account id), `local:admin`. */
  id: string;
  name: string;
  via: 'slack' | 'github' | 'local';
}

export interface Session {
  /** The token's hash: the row's key. */
  id: string;
  operator: Operator;
  role: ConsoleRole;
  /** `local`, `user:<entry>`, `team:<id>` or `org:<login>` (see console-app.ts). */
  grounds: string;
  csrf: string;
  expiresAt: number;
}

/** Signs any small value (the sign-in state cookie); `open` checks and returns it. */
export type SessionSigner = SignedState;

export function createSessionSigner(options: { secret?: string }): SessionSigner {
  const key = options.secret ?? randomBytes(32).toString('hex');
  return createSignedState(purposeKey(key, 'console seal'));
}

export interface Sessions {
  /** A new session: its cookie token (only ever in the cookie) and the session. */
  issue(
    operator: Operator,
    role: ConsoleRole,
    grounds: string,
    now: number,
  ): Promise<{ token: string; session: Session }>;
  /** The live session a cookie token names, or undefined. */
  find(token: string | undefined, now: number): Promise<Session | undefined>;
  end(session: Session): Promise<void>;
  checkCsrf(session: Session, token: unknown): boolean;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export function createSessions(options: {
  repo: ConsoleSessionRepo;
  lifetimeMs: number;
}): Sessions {
  const { repo } = options;
  return {
    async issue(operator, role, grounds, now) {
      const token = randomBytes(32).toString('base64url');
      const session: Session = {
        id: hashOf(token),
        operator,
        role,
        grounds,
        csrf: randomBytes(24).toString('base64url'),
        expiresAt: now + options.lifetimeMs,
      };
      await repo.create({
        id: session.id,
        operatorId: operator.id,
        operatorName: operator.name,
        via: operator.via,
        role,
        grounds,
        csrf: session.csrf,
        createdAt: now,
        expiresAt: session.expiresAt,
      });
      return { token, session };
    },
    async find(token, now) {
      if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
      const row = await repo.get(hashOf(token), now);
      if (!row) return undefined;
      return {
        id: row.id,
        operator: { id: row.operatorId, name: row.operatorName, via: row.via },
        role: row.role,
        grounds: row.grounds,
        csrf: row.csrf,
        expiresAt: row.expiresAt,
      };
    },
    end: (session) => repo.remove(session.id),
    checkCsrf: (session, token) => typeof token === 'string' && equalText(token, session.csrf),
  };
}
