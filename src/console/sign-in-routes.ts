/**
 * Signing in and out: the sign-in page, the redirect to Slack or GitHub and the way back
 * (state bound to a short-lived signed cookie, so a code cannot be planted from another
 * site, and good once), the role the person gets (operator when named, viewer when a member
 * of an allowed workspace or organization, never a Slack guest), the local admin link, and
 * sign-out (which ends the session in the store).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Logger } from '../core/ports/index.js';
import { setCookie } from './cookies.js';
import type { IdentityProvider } from './identity-providers.js';
import { SignInError } from './identity-providers.js';
import type { LocalAdminLink } from './local-admin.js';
import { html } from './html.js';
import type { Operator, Session, SessionSigner, Sessions } from './session.js';
import type { ConsoleRole } from '../core/ports/index.js';
import { plainPage, signinPage } from './pages/signin-page.js';
import { sendHtml, redirect } from './respond.js';

export const SESSION_COOKIE = 'relay_console';
const SIGNIN_COOKIE = 'relay_console_signin';
const SIGNIN_WINDOW_MS = 10 * 60_000;

const SignInState = z.object({
  provider: z.string(),
  state: z.string(),
  nonce: z.string(),
  next: z.string(),
  expiresAt: z.number(),
});

/**
 * A console path to go back to: `/console…` in printable ASCII (what a Location header may
 * carry), no backslash, no `//`; undefined for anything else (no open redirect, no header
 * that cannot be written).
 */
export function consolePath(value: string | null | undefined): string | undefined {
  if (!value || value.length > 2000 || !/^\/console(?:[/?]|$)/.test(value)) return undefined;
  if (!/^[\x21-\x7e]*$/.test(value) || value.includes('\\') || value.includes('//'))
    return undefined;
  return value;
}

/** Where to go after signing in: a console path, or the console's front page. */
export function safeNext(value: string | null | undefined): string {
  return consolePath(value) ?? '/console';
}

const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export interface SignInDeps {
  providers: IdentityProvider[];
  adminLink?: LocalAdminLink;
  signer: SessionSigner;
  sessions: Sessions;
  /** Record a one-time value as used until `expiresAt`; false when it already was. */
  useOnce: (key: string, expiresAt: number) => Promise<boolean>;
  /** The account id a login of CONSOLE_GITHUB_USERS is pinned to (pinned now if new). */
  pinLogin: (login: string, accountId: string) => Promise<string>;
  /**
   * Whether a Slack user is a guest (`is_restricted`/`is_ultra_restricted`); undefined when
   * it cannot be told (then a workspace member is not let in).
   */
  slackGuest?: (team: string, user: string) => Promise<boolean | undefined>;
  logger: Logger;
  now: () => number;
  secure: boolean;
  sessionMaxAgeSec: number;
  /** The console's public base (for redirect URIs), e.g. `https://relay.example.com`. */
  publicUrl: () => string;
}

export function createSignInRoutes(deps: SignInDeps) {
  const cookie = (name: string, value: string, maxAge: number) =>
    setCookie(name, value, { secure: deps.secure, maxAge });
  const redirectUri = (p: IdentityProvider) =>
    `${deps.publicUrl()}/console/signin/${p.name}/callback`;

  async function signedIn(
    res: ServerResponse,
    who: { operator: Operator; role: ConsoleRole; grounds: string },
    next: string,
    how: string,
  ): Promise<void> {
    const { operator, role, grounds } = who;
    const { token } = await deps.sessions.issue(operator, role, grounds, deps.now());
    deps.logger.info({ operator: operator.id, via: operator.via, role, how }, 'console: signed in');
    redirect(res, next, [
      cookie(SESSION_COOKIE, token, deps.sessionMaxAgeSec),
      cookie(SIGNIN_COOKIE, '', 0),
    ]);
  }

  function refuse(res: ServerResponse, status: number, title: string, why: string): void {
    sendHtml(
      res,
      status,
      plainPage(
        title,
        html`<h1>${title}</h1>
          <p>${why}</p>
          <p><a href="/console/signin">Back to sign-in</a></p>`,
      ),
    );
  }

  return {
    page(res: ServerResponse, url: URL): void {
      sendHtml(
        res,
        200,
        signinPage({
          providers: deps.providers.map((p) => ({ name: p.name, label: p.label })),
          adminLink: deps.adminLink !== undefined,
          next: safeNext(url.searchParams.get('next')),
        }),
      );
    },

    start(res: ServerResponse, provider: IdentityProvider, url: URL): void {
      const state = randomBytes(18).toString('base64url');
      const nonce = randomBytes(18).toString('base64url');
      const sealed = deps.signer.seal({
        provider: provider.name,
        state,
        nonce,
        next: safeNext(url.searchParams.get('next')),
        expiresAt: deps.now() + SIGNIN_WINDOW_MS,
      });
      redirect(res, provider.authorizeUrl({ state, nonce, redirectUri: redirectUri(provider) }), [
        cookie(SIGNIN_COOKIE, sealed, SIGNIN_WINDOW_MS / 1000),
      ]);
    },

    async callback(
      res: ServerResponse,
      provider: IdentityProvider,
      url: URL,
      cookies: Map<string, string>,
    ): Promise<void> {
      const parsed = SignInState.safeParse(deps.signer.open(cookies.get(SIGNIN_COOKIE)));
      const state = url.searchParams.get('state') ?? '';
      const code = url.searchParams.get('code') ?? '';
      if (
        !parsed.success ||
        parsed.data.provider !== provider.name ||
        parsed.data.expiresAt <= deps.now() ||
        !same(parsed.data.state, state)
      )
        return refuse(
          res,
          400,
          'Sign-in expired',
          'This sign-in was not started here, or took too long. Please start again.',
        );
      const once = `console-signin:${createHash('sha256').update(state).digest('base64url')}`;
      if (!(await deps.useOnce(once, parsed.data.expiresAt))) {
        deps.logger.warn({ via: provider.name }, 'console: sign-in refused (state used before)');
        return refuse(
          res,
          400,
          'Sign-in already used',
          'This sign-in link was already used. Please start again.',
        );
      }
      if (!code)
        return refuse(
          res,
          400,
          'Sign-in cancelled',
          `${provider.label} did not sign you in (${url.searchParams.get('error') ?? 'no code'}).`,
        );
      try {
        const identity = await provider.identify({
          code,
          nonce: parsed.data.nonce,
          redirectUri: redirectUri(provider),
        });
        // Logged with why, answered 403 with what the person can do about it.
        const notAllowed = (fields: object, why: string, text: string) => {
          deps.logger.warn(
            { operator: identity.operator.id, ...fields },
            `console: sign-in refused (${why})`,
          );
          refuse(res, 403, 'Not allowed', text);
        };
        const accountId = identity.operator.id.replace(/^github:/, '');
        if (identity.byLogin && (await deps.pinLogin(identity.byLogin, accountId)) !== accountId)
          return notAllowed(
            { login: identity.byLogin },
            'the login belonged to another GitHub account',
            `The login ${identity.byLogin} was allowed for another GitHub account. Ask the operator to name your account id instead.`,
          );
        if (identity.role === 'viewer' && identity.slack) {
          const guest = await deps.slackGuest?.(identity.slack.team, identity.slack.user);
          if (guest !== false)
            return notAllowed(
              { guest: guest ?? 'unknown' },
              'a guest, or not known not to be one',
              guest
                ? 'Guests of the workspace cannot use this console.'
                : 'Your workspace membership could not be checked. Ask the operator to name you in CONSOLE_SLACK_USERS.',
            );
        }
        if (!identity.allowedBecause || !identity.role || !identity.grounds) {
          return notAllowed(
            { via: provider.name },
            'not in the allowed workspaces/organizations or users',
            `${identity.operator.name} is not allowed to use this console. Ask its operator to add your workspace, organization or account.`,
          );
        }
        await signedIn(
          res,
          { operator: identity.operator, role: identity.role, grounds: identity.grounds },
          parsed.data.next,
          identity.allowedBecause,
        );
      } catch (err) {
        if (!(err instanceof SignInError)) throw err;
        deps.logger.warn({ err, via: provider.name }, 'console: sign-in failed');
        refuse(
          res,
          502,
          'Sign-in failed',
          `${provider.label} could not complete the sign-in (${err.code}). Please try again.`,
        );
      }
    },

    async local(req: IncomingMessage, res: ServerResponse, token: string | null): Promise<void> {
      if (!deps.adminLink) return refuse(res, 404, 'Not available', 'The local admin link is off.');
      const outcome = deps.adminLink.redeem(req, token, deps.now());
      if (outcome !== 'ok') {
        deps.logger.warn(
          { outcome, peer: req.socket.remoteAddress },
          'console: local admin link refused',
        );
        const why = {
          not_loopback: 'The local admin link works only from the machine agent-relay runs on.',
          invalid: 'This link is not valid.',
          used: 'This link was already used; each start-up prints a new one.',
          expired: 'This link has expired; each start-up prints a new one.',
        }[outcome];
        return refuse(res, 403, 'Link refused', why);
      }
      await signedIn(
        res,
        {
          operator: { id: 'local:admin', name: 'local admin', via: 'local' },
          role: 'operator',
          grounds: 'local',
        },
        '/console',
        'local admin link',
      );
    },

    async signOut(res: ServerResponse, session: Session): Promise<void> {
      await deps.sessions.end(session);
      deps.logger.info({ operator: session.operator.id }, 'console: signed out');
      redirect(res, '/console/signin', [cookie(SESSION_COOKIE, '', 0)]);
    },
  };
}
