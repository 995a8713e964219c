/**
 * The local admin link of the embedded default: one random token, printed at start-up,
 * good for one sign-in, and only from this machine (a loopback peer that came through no
 * proxy: a request carrying forwarding headers is refused, since a reverse proxy on the same
 * machine would make every visitor look local).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface LocalAdminLink {
  /** The token to print (once). */
  readonly token: string;
  /** True exactly once, for the right token from a loopback peer. */
  redeem(req: IncomingMessage, token: unknown): 'ok' | 'not_loopback' | 'invalid' | 'used';
}

const digest = (s: string) => createHash('sha256').update(s).digest();

export function isLoopbackPeer(req: IncomingMessage): boolean {
  const forwarded = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'];
  if (forwarded.some((h) => req.headers[h] !== undefined)) return false;
  const address = req.socket.remoteAddress ?? '';
  return (
    address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address) || /^::ffff:127\./i.test(address)
  );
}

export function createLocalAdminLink(): LocalAdminLink {
  const token = randomBytes(24).toString('base64url');
  const expected = digest(token);
  let used = false;
  return {
    token,
    redeem(req, given) {
      if (!isLoopbackPeer(req)) return 'not_loopback';
      if (typeof given !== 'string' || given.length > 200) return 'invalid';
      if (!timingSafeEqual(digest(given), expected)) return 'invalid';
      if (used) return 'used';
      used = true;
      return 'ok';
    },
  };
}
