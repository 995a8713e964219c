/**
 * Sign in with Slack (OpenID Connect) and with GitHub (OAuth): where to send the browser, and
 * how to turn the code it brings back into a person and the workspaces/organizations they
 * belong to. Every answer passes a zod schema; every call has a time limit.
 */
import { z } from 'zod';
import type { ConsoleConfig } from '../config/load.js';
import type { Operator } from './session.js';

/** What Sign in with Slack asks for; the app's manifest declares them as user scopes. */
export const SLACK_SIGN_IN_SCOPES = ['openid', 'profile'] as const;

export interface Identity {
  operator: Operator;
  /** Why they are let in, or undefined when they are not. */
  allowedBecause?: string;
  /**
   * Named in a user list: `operator`; a member of an allowed workspace or organization:
   * `viewer` at most. Set exactly when `allowedBecause` is.
   */
  role?: 'operator' | 'viewer';
  /** What let them in, re-checked at each request: `user:<entry>`, `team:<id>`, `org:<login>`. */
  grounds?: string;
  /** Let in by a login (not an id) of CONSOLE_GITHUB_USERS: the login, to pin to the account id. */
  byLogin?: string;
  /** Slack: the workspace and user, for the guest check of a workspace member. */
  slack?: { team: string; user: string };
}

export interface IdentityProvider {
  readonly name: 'slack' | 'github';
  readonly label: string;
  authorizeUrl(p: { state: string; nonce: string; redirectUri: string }): string;
  identify(p: { code: string; nonce: string; redirectUri: string }): Promise<Identity>;
}

export class SignInError extends Error {
  override readonly name = 'SignInError';
  constructor(
    readonly code: 'provider_refused' | 'provider_unavailable' | 'bad_answer',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const TIMEOUT_MS = 10_000;

async function call(url: string, init: RequestInit): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new SignInError('provider_unavailable', `no answer from ${new URL(url).host}`, {
      cause: err,
    });
  }
  if (res.status >= 500) throw new SignInError('provider_unavailable', `HTTP ${res.status}`);
  try {
    return (await res.json()) as unknown;
  } catch {
    throw new SignInError('bad_answer', `HTTP ${res.status} without JSON`);
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SignInError('bad_answer', `unexpected ${what} answer`);
  return parsed.data;
}

const SlackToken = z.union([
  z.looseObject({ ok: z.literal(true), access_token: z.string(), id_token: z.string() }),
  z.looseObject({ ok: z.literal(false), error: z.string() }),
]);
const SlackUser = z.union([
  z.looseObject({
    ok: z.literal(true),
    sub: z.string(),
    'https://slack.com/user_id': z.string(),
    'https://slack.com/team_id': z.string(),
    name: z.string().optional(),
  }),
  z.looseObject({ ok: z.literal(false), error: z.string() }),
]);

/** The nonce inside an ID token received straight from the token endpoint (over TLS). */
function idTokenNonce(idToken: string): unknown {
  try {
    const payload = idToken.split('.')[1] ?? '';
    return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { nonce?: unknown })
      .nonce;
  } catch {
    return undefined;
  }
}

export function slackProvider(c: NonNullable<ConsoleConfig['slack']>): IdentityProvider {
  return {
    name: 'slack',
    label: 'Sign in with Slack',
    authorizeUrl({ state, nonce, redirectUri }) {
      const q = new URLSearchParams({
        response_type: 'code',
        scope: SLACK_SIGN_IN_SCOPES.join(' '),
        client_id: c.clientId,
        state,
        nonce,
        redirect_uri: redirectUri,
        ...(c.teams.length === 1 && c.teams[0] ? { team: c.teams[0] } : {}),
      });
      return `${c.baseUrl}/openid/connect/authorize?${q.toString()}`;
    },
    async identify({ code, nonce, redirectUri }) {
      const form = new URLSearchParams({
        client_id: c.clientId,
        client_secret: c.secret,
        code,
        redirect_uri: redirectUri,
        grant_type: 'authorization_code',
      });
      const token = parse(
        SlackToken,
        await call(`${c.baseUrl}/api/openid.connect.token`, { method: 'POST', body: form }),
        'token',
      );
      if (!token.ok) throw new SignInError('provider_refused', `Slack said ${token.error}`);
      if (idTokenNonce(token.id_token) !== nonce)
        throw new SignInError('bad_answer', 'the ID token is not for this sign-in');
      const user = parse(
        SlackUser,
        await call(`${c.baseUrl}/api/openid.connect.userInfo`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token.access_token}` },
        }),
        'userInfo',
      );
      if (!user.ok) throw new SignInError('provider_refused', `Slack said ${user.error}`);
      const team = user['https://slack.com/team_id'];
      const userId = user['https://slack.com/user_id'];
      const operator: Operator = {
        id: `slack:${team}/${userId}`,
        name: user.name ?? userId,
        via: 'slack',
      };
      const slack = { team, user: userId };
      if (c.users.includes(userId))
        return {
          operator,
          slack,
          allowedBecause: `user ${userId}`,
          role: 'operator',
          grounds: `user:${userId}`,
        };
      if (c.teams.includes(team))
        return {
          operator,
          slack,
          allowedBecause: `workspace ${team}`,
          role: 'viewer',
          grounds: `team:${team}`,
        };
      return { operator, slack };
    },
  };
}

const GitHubToken = z.union([
  z.looseObject({ access_token: z.string() }),
  z.looseObject({ error: z.string() }),
]);
const GitHubUser = z.looseObject({
  id: z.number().int().positive(),
  login: z.string(),
  name: z.string().nullish(),
});
const GitHubOrgs = z.array(z.looseObject({ login: z.string() }));

export function githubProvider(c: NonNullable<ConsoleConfig['github']>): IdentityProvider {
  const lower = (xs: string[]) => xs.map((x) => x.toLowerCase());
  const users = lower(c.users);
  const orgs = lower(c.orgs);
  return {
    name: 'github',
    label: 'Sign in with GitHub',
    authorizeUrl({ state, redirectUri }) {
      const q = new URLSearchParams({
        client_id: c.clientId,
        redirect_uri: redirectUri,
        state,
        allow_signup: 'false',
        // Private organization memberships are listed only with read:org.
        ...(orgs.length > 0 ? { scope: 'read:org' } : {}),
      });
      return `${c.webUrl}/login/oauth/authorize?${q.toString()}`;
    },
    async identify({ code, redirectUri }) {
      const form = new URLSearchParams({
        client_id: c.clientId,
        client_secret: c.secret,
        code,
        redirect_uri: redirectUri,
      });
      const token = parse(
        GitHubToken,
        await call(`${c.webUrl}/login/oauth/access_token`, {
          method: 'POST',
          headers: { accept: 'application/json' },
          body: form,
        }),
        'token',
      );
      if ('error' in token) throw new SignInError('provider_refused', `GitHub said ${token.error}`);
      const headers = {
        authorization: `Bearer ${token.access_token}`,
        accept: 'application/vnd.github+json',
        'user-agent': 'agent-relay-console',
      };
      const user = parse(GitHubUser, await call(`${c.apiUrl}/user`, { headers }), 'user');
      const login = user.login.toLowerCase();
      const id = String(user.id);
      // The account id is what a person keeps for life; a login can be given up and taken.
      const operator: Operator = {
        id: `github:${id}`,
        name: user.name ?? user.login,
        via: 'github',
      };
      if (users.includes(id))
        return { operator, allowedBecause: `user ${id}`, role: 'operator', grounds: `user:${id}` };
      if (users.includes(login))
        return {
          operator,
          allowedBecause: `user ${user.login}`,
          role: 'operator',
          grounds: `user:${login}`,
          byLogin: login,
        };
      if (orgs.length > 0) {
        const mine = parse(
          GitHubOrgs,
          await call(`${c.apiUrl}/user/orgs?per_page=100`, { headers }),
          'orgs',
        );
        const org = mine.map((o) => o.login.toLowerCase()).find((o) => orgs.includes(o));
        if (org)
          return {
            operator,
            allowedBecause: `organization ${org}`,
            role: 'viewer',
            grounds: `org:${org}`,
          };
      }
      return { operator };
    },
  };
}
