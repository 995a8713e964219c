/**
 * The fake GitHub's credentials, checked as GitHub checks them: in App mode, an App JWT
 * (RS256 by the App's key, `iss` the App id, not expired) for `/app/...` and
 * `/repos/{o}/{r}/installation`, and an unexpired installation token it minted everywhere
 * else; in token mode, the configured token. With neither, anything goes.
 */
import { createPublicKey, verify as verifySignature } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { BOT_LOGIN } from './github-state.js';

export interface GitHubCredentials {
  /** App mode: verify JWTs against this public key and `iss`. */
  app?: { appId: string | number; publicKey: string | KeyObject };
  /** Token mode: the token requests carry (with `app` too: accepted besides minted tokens). */
  token?: string;
  /** How long a minted installation token lives (default an hour). */
  tokenTtlMs?: number;
}

/** The user a configured (personal or machine-user) token belongs to. */
export const TOKEN_USER = 'relay-user';

const APP_ROUTE = /^\/app(\/|$)|^\/repos\/[^/]+\/[^/]+\/installation$/;

/** An App JWT: RS256 by the App's key, `iss` the App id, not expired (real time, like GitHub). */
function verifyJwt(jwt: string, key: KeyObject, appId: string | number): boolean {
  const [header, payload, signature] = jwt.split('.');
  if (header === undefined || payload === undefined || signature === undefined) return false;
  const ok = verifySignature(
    'RSA-SHA256',
    Buffer.from(`${header}.${payload}`),
    key,
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) return false;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    iss?: unknown;
    exp?: number;
  };
  return String(claims.iss) === String(appId) && (claims.exp ?? 0) * 1000 > Date.now();
}

export function createGitHubAuth(options: GitHubCredentials, now: () => number) {
  const app = options.app;
  const key = app?.publicKey;
  const appKey =
    key === undefined || (typeof key !== 'string' && key.type === 'public')
      ? key
      : createPublicKey(key);
  const tokenTtlMs = options.tokenTtlMs ?? 60 * 60_000;
  const minted = new Map<string, number>();
  const tokenRequests: { installationId: number; token: string }[] = [];

  return {
    tokenRequests,
    /** May a request to `path` with this Authorization header pass? */
    authorized(path: string, header: string | undefined): boolean {
      const [scheme = '', credential = ''] = (header ?? '').split(' ');
      if (app !== undefined && appKey !== undefined && APP_ROUTE.test(path))
        return /^bearer$/i.test(scheme) && verifyJwt(credential, appKey, app.appId);
      if (options.token !== undefined && credential === options.token) return true;
      if (app !== undefined) {
        const expires = minted.get(credential);
        return /^token$/i.test(scheme) && expires !== undefined && expires > now();
      }
      return options.token === undefined;
    },
    /**
     * Whom a request's credential belongs to, as GitHub names the author of what it writes:
     * the configured token's user (`TOKEN_USER`, what `/user` answers), or the App's bot for
     * an installation token (and when no credentials are configured).
     */
    userOf(header: string | undefined): string {
      const [, credential = ''] = (header ?? '').split(' ');
      return options.token !== undefined && credential === options.token ? TOKEN_USER : BOT_LOGIN;
    },
    /** A new installation token, as POST /app/installations/{id}/access_tokens gives it. */
    mint(installationId: number): { token: string; expiresAt: number } {
      const token = `ghs_fake_${installationId}_${tokenRequests.length + 1}`;
      const expiresAt = now() + tokenTtlMs;
      minted.set(token, expiresAt);
      tokenRequests.push({ installationId, token });
      return { token, expiresAt };
    },
  };
}
