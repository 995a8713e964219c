/**
 * OAuth install in any number of Linear workspaces: `GET /linear/install` sends the browser to
 * Linear's consent page asking for an app actor (`actor=app`) with the scopes the agent
 * platform needs (`read`, `write`, `app:assignable` to be delegated issues, `app:mentionable`
 * to be mentioned); `GET /linear/oauth_redirect` checks the state (signed, ten minutes, used
 * once, and the same as the state cookie of the browser that started the install), exchanges
 * the code, asks whose workspace it is, and keeps the token pair, sealed, only for an
 * organization on LINEAR_ALLOWED_ORGANIZATIONS and only when it is an app's token
 * (`actor=app`); a token it does not keep is revoked at once. The `redirect_uri` comes from
 * the configuration (CONSOLE_PUBLIC_URL), never from the Host header (which only serves an
 * install reached on loopback).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, Logger } from '../../core/ports/index.js';
import { cookieOf, installPage as page, loopbackRoot } from '../../platform/oauth-state.js';
import { createSignedState, equalText, purposeKey } from '../../platform/signed-state.js';
import { exchangeCode, revokeToken, whoseToken } from '../api/oauth.js';
import type { LinearInstallations } from './installations.js';

export const LINEAR_INSTALL_PATH = '/linear/install';
export const LINEAR_REDIRECT_PATH = '/linear/oauth_redirect';
export const LINEAR_SCOPES = ['read', 'write', 'app:assignable', 'app:mentionable'] as const;
const STATE_TTL_MS = 10 * 60_000;

export interface LinearOAuthDeps {
  clientId: string;
  clientSecret: string;
  apiUrl: string;
  /** Linear's consent page. Default https://linear.app/oauth/authorize. */
  authorizationUrl?: string;
  allowedOrganizations: readonly string[];
  installations: LinearInstallations;
  /**
   * Where Linear sends the browser back, from the configuration (CONSOLE_PUBLIC_URL); unset:
   * this server's own address, only when the browser reached it on loopback (development).
   */
  redirectUri?: string;
  /** Record a state as used (every replica sees it); without it a state is only time-bound. */
  useStateOnce?: (state: string, expiresAt: number) => Promise<boolean>;
  clock: Clock;
  logger: Logger;
}

export interface LinearOAuthRoutes {
  install(req: IncomingMessage, res: ServerResponse): Promise<void>;
  redirect(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** The cookie that ties an install to the browser that started it. */
const STATE_COOKIE = 'linear_oauth_state';

/** Loopback only: without a configured address, the Host header names no one else. */
function loopbackRedirectUri(req: IncomingMessage): string | undefined {
  const root = loopbackRoot(req);
  return root === undefined ? undefined : `${root}${LINEAR_REDIRECT_PATH}`;
}

export function createLinearOAuthRoutes(deps: LinearOAuthDeps): LinearOAuthRoutes {
  const log = deps.logger.child({ component: 'linear-oauth' });
  const signed = createSignedState(purposeKey(deps.clientSecret, 'linear-oauth-state'));

  function newState(): string {
    return signed.seal({
      exp: deps.clock.now() + STATE_TTL_MS,
      n: randomBytes(16).toString('base64url'),
    });
  }

  function stateExpiry(state: string): number | undefined {
    const expiresAt = (signed.open(state) as { exp?: unknown } | undefined)?.exp;
    return typeof expiresAt === 'number' && expiresAt > deps.clock.now() ? expiresAt : undefined;
  }

  const redirectUriOf = (req: IncomingMessage) => deps.redirectUri ?? loopbackRedirectUri(req);
  const noAddress = (res: ServerResponse) =>
    page(
      res,
      500,
      'agent-relay does not know its public address: ask whoever runs it to set CONSOLE_PUBLIC_URL.',
    );

  return {
    async install(req, res) {
      const redirectUri = redirectUriOf(req);
      if (redirectUri === undefined) return noAddress(res);
      const state = newState();
      const url = new URL(deps.authorizationUrl ?? 'https://linear.app/oauth/authorize');
      url.searchParams.set('client_id', deps.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', LINEAR_SCOPES.join(','));
      url.searchParams.set('actor', 'app');
      url.searchParams.set('state', state);
      const secure = redirectUri.startsWith('https:') ? '; Secure' : '';
      res.writeHead(302, {
        location: url.toString(),
        'cache-control': 'no-store',
        'set-cookie': `${STATE_COOKIE}=${state}; Path=/linear; HttpOnly; SameSite=Lax; Max-Age=${STATE_TTL_MS / 1000}${secure}`,
      });
      res.end();
    },
    async redirect(req, res) {
      const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
      const state = query.get('state') ?? '';
      const code = query.get('code');
      const expiresAt = stateExpiry(state);
      const cookie = cookieOf(req, STATE_COOKIE);
      // The install finishes only in the browser that started it (its cookie holds the state).
      if (
        expiresAt === undefined ||
        cookie === undefined ||
        !equalText(cookie, state) ||
        (deps.useStateOnce && !(await deps.useStateOnce(state, expiresAt)))
      )
        return page(
          res,
          400,
          'This install link has expired or was used already. Start again from /linear/install.',
        );
      if (!code)
        return page(
          res,
          400,
          'Linear did not grant the install (no code). Start again from /linear/install.',
        );
      const redirectUri = redirectUriOf(req);
      if (redirectUri === undefined) return noAddress(res);
      try {
        const exchanged = await exchangeCode({
          apiUrl: deps.apiUrl,
          code,
          redirectUri,
          clientId: deps.clientId,
          clientSecret: deps.clientSecret,
          now: deps.clock.now(),
        });
        if ('error' in exchanged) {
          log.warn({ error: exchanged.error }, 'Linear refused the code exchange');
          return page(res, 400, 'Linear refused the install. Start again from /linear/install.');
        }
        const who = await whoseToken(deps.apiUrl, exchanged.accessToken);
        /** Nothing of the grant is kept: its token goes back to Linear, the installer is told. */
        const giveBack = async (why: string, answer: string) => {
          const revoked = await revokeToken(deps.apiUrl, exchanged.accessToken).catch(() => false);
          log.warn({ organizationId: who.organizationId, revoked }, why);
          return page(res, 403, answer);
        };
        const allowed = deps.allowedOrganizations;
        if (
          !allowed.includes(who.organizationId) &&
          !(who.urlKey && allowed.includes(who.urlKey))
        ) {
          return giveBack(
            'Linear install from an organization not allowed',
            'This Linear workspace may not install agent-relay here. Ask whoever runs it to add the workspace to LINEAR_ALLOWED_ORGANIZATIONS.',
          );
        }
        // Only an app's token is kept: a person's token (an install without `actor=app`) would
        // act as them, and must not replace the workspace's app token either.
        if (!who.app) {
          return giveBack(
            'Linear install gave a token that is not an app token; not kept',
            'Linear gave a token that acts as a person, not as the app; nothing was changed. Start again from /linear/install.',
          );
        }
        await deps.installations.save(
          {
            organizationId: who.organizationId,
            token: exchanged.accessToken,
            ...(exchanged.refreshToken ? { refreshToken: exchanged.refreshToken } : {}),
            ...(exchanged.expiresAt === undefined ? {} : { expiresAt: exchanged.expiresAt }),
            installedBy: who.appUserId,
          },
          deps.clock.now(),
        );
        log.info({ organizationId: who.organizationId }, 'installed in a Linear workspace');
        return page(
          res,
          200,
          'agent-relay is installed in this Linear workspace. Delegate an issue to it, or mention it, to start a run.',
        );
      } catch (err) {
        log.error({ err: (err as Error).message }, 'Linear install failed');
        return page(
          res,
          502,
          'Linear did not answer; the install did not finish. Please try again.',
        );
      }
    },
  };
}
