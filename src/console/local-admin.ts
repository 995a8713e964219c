/**
 * The local admin link of the embedded default: one random token, printed at start-up,
 * good for one sign-in within its lifetime (CONSOLE_ADMIN_LINK_MINUTES), and only from this
 * machine: a loopback peer that came through no proxy. A request carrying any forwarding
 * header is taken as proxied and refused, since a reverse proxy on the same machine would
 * make every visitor look local.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface LocalAdminLink {
  /** The token to print (once). */
  readonly token: string;
  /** True exactly once, for the right token from a loopback peer, before it expires. */
  redeem(
    req: IncomingMessage,
    token: unknown,
    now: number,
  ): 'ok' | 'not_loopback' | 'invalid' | 'used' | 'expired';
}

/**
 * Headers a proxy, load balancer or CDN adds to say whom it forwards for: the standard ones
 * (`Forwarded`, `Via`), the de-facto `X-Forwarded-*` family (matched by prefix) and the
 * common vendors' own.
 */
const FORWARDING_HEADERS = [
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'x-original-forwarded-for',
  'x-proxyuser-ip',
  'x-originating-ip',
  'x-remote-ip',
  'x-remote-addr',
  'client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'cf-connecting-ipv6',
  'cf-ray',
  'fastly-client-ip',
  'akamai-origin-hop',
  'x-azure-clientip',
  'x-azure-socketip',
  'x-appengine-user-ip',
  'x-envoy-external-address',
];
const FORWARDING_PREFIXES = ['x-forwarded-', 'x-amzn-', 'x-envoy-'];

/** Whether any header says the request came through a proxy. */
export function cameThroughProxy(req: IncomingMessage): boolean {
  return Object.keys(req.headers).some(
    (name) =>
      FORWARDING_HEADERS.includes(name) || FORWARDING_PREFIXES.some((p) => name.startsWith(p)),
  );
}

/**
 * The link to print: the token is a path segment, not a `token=` parameter, so the log's
 * scrubber (which masks every `token=` value in a message, whatever printed it) leaves the
 * one link meant to be read intact. `?token=` is still accepted.
 */
export function localAdminUrl(baseUrl: string, token: string): string {
  return `${baseUrl}${LOCAL_ADMIN_PATH}/${token}`;
}

export const LOCAL_ADMIN_PATH = '/console/signin/local';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function isLoopbackPeer(req: IncomingMessage): boolean {
  if (cameThroughProxy(req)) return false;
  const address = req.socket.remoteAddress ?? '';
  return (
    address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address) || /^::ffff:127\./i.test(address)
  );
}

export function createLocalAdminLink(options: { now: number; lifetimeMs: number }): LocalAdminLink {
  const token = randomBytes(24).toString('base64url');
  const expected = digest(token);
  const expiresAt = options.now + options.lifetimeMs;
  let used = false;
  return {
    token,
    redeem(req, given, now) {
      if (!isLoopbackPeer(req)) return 'not_loopback';
      if (typeof given !== 'string' || given.length > 200) return 'invalid';
      if (!timingSafeEqual(digest(given), expected)) return 'invalid';
      if (used) return 'used';
      if (now >= expiresAt) return 'expired';
      used = true;
      return 'ok';
    },
  };
}
