/**
 * The operator's console: its variables, each with its schema (part of the one list in
 * variables.ts, so of the one EnvSchema), and the rules between them. Kept apart so the
 * console's settings read as one block.
 */
import { z } from 'zod';
import type { ConfigVariable } from './variables.js';
import { flag, httpUrl, idList, wholeNumber } from './value-schemas.js';
import type { ConfigIssue } from './rules.js';
import type { Env } from './schema.js';
import type { ConsoleConfig } from './types.js';

export const CONSOLE_VARIABLES = [
  {
    name: 'CONSOLE_ENABLED',
    schema: flag.optional(),
    meaning: 'serve the operator console at `/console` (`1`/`0`)',
    default: 'on when a sign-in or the local admin link is on',
  },
  {
    name: 'CONSOLE_PUBLIC_URL',
    schema: httpUrl.optional(),
    meaning:
      "the address browsers reach agent-relay at: the base of the sign-in redirect URIs and of Linear's install callback (`/linear/oauth_redirect`); `https://` makes the cookies `Secure`",
    default: "the listening URL (Linear's install: only on `localhost`)",
  },
  {
    name: 'CONSOLE_SESSION_SECRET',
    schema: z.string().min(32, 'must be at least 32 characters').optional(),
    meaning:
      'key that signs the sign-in state cookie, 32+ characters; replicas behind one address must share it. Sessions themselves are kept in the database ([security.md](security.md#console-roles-and-sessions))',
    default: 'random per process (a sign-in under way at a restart must start again)',
    secret: true,
    fields: ['secret'],
  },
  {
    name: 'CONSOLE_SESSION_HOURS',
    schema: wholeNumber(1, 720).default(12),
    meaning: 'how long a console sign-in lasts',
    default: '`12`',
  },
  {
    name: 'CONSOLE_ADMIN_LINK',
    schema: flag.optional(),
    meaning:
      'print a one-time sign-in link at start-up, accepted from this machine (loopback) only (`1`/`0`)',
    default: 'on with the embedded emulator, off otherwise',
  },
  {
    name: 'CONSOLE_ADMIN_LINK_MINUTES',
    schema: wholeNumber(1, 1440).default(15),
    meaning:
      'how long the one-time admin link printed at start-up stays good; after that it is refused',
    default: '`15`',
  },
  {
    name: 'CONSOLE_SLACK_TEAMS',
    schema: idList('Slack team ids (T0123…)', /^[A-Z0-9]{2,}$/).default([]),
    meaning:
      'Sign in with Slack as a **viewer** for members of these workspaces (team ids, comma-separated); guests never',
    default: 'unset',
  },
  {
    name: 'CONSOLE_SLACK_USERS',
    schema: idList('Slack user ids (U0123…)', /^[A-Z0-9]{2,}$/).default([]),
    meaning: 'Sign in with Slack as an **operator** for these users (user ids, comma-separated)',
    default: 'unset',
  },
  {
    name: 'CONSOLE_GITHUB_ORGS',
    schema: idList('GitHub organizations', /^[A-Za-z0-9-]{1,39}$/).default([]),
    meaning:
      'Sign in with GitHub as a **viewer** for members of these organizations (comma-separated)',
    default: 'unset',
  },
  {
    name: 'CONSOLE_GITHUB_USERS',
    schema: idList('GitHub logins', /^[A-Za-z0-9-]{1,39}$/).default([]),
    meaning:
      'Sign in with GitHub as an **operator** for these account ids (preferred) or logins (comma-separated; a login is pinned to the account that first signs in with it)',
    default: 'unset',
  },
  {
    name: 'GITHUB_CLIENT_ID',
    schema: z.string().optional(),
    meaning: 'client id of the GitHub OAuth app used to sign in to the console',
    default: 'unset',
  },
  {
    name: 'GITHUB_CLIENT_SECRET',
    schema: z.string().optional(),
    meaning: 'its client secret',
    default: 'unset',
    secret: true,
    fields: ['secret'],
  },
  {
    name: 'CONSOLE_SLACK_URL',
    schema: httpUrl.default('https://slack.com'),
    meaning: "Slack's sign-in base (`/openid/connect/authorize`, `/api/openid.connect.*`)",
    default: '`https://slack.com`',
  },
  {
    name: 'CONSOLE_GITHUB_URL',
    schema: httpUrl.default('https://github.com'),
    meaning: "GitHub's web base for `/login/oauth/*` (GitHub Enterprise Server: `https://HOST`)",
    default: '`https://github.com`',
  },
] as const satisfies readonly ConfigVariable[];

type ConsoleEnv = Pick<
  Env,
  | (typeof CONSOLE_VARIABLES)[number]['name']
  | 'AGENT_API_URL'
  | 'GITHUB_API_URL'
  | 'SLACK_CLIENT_ID'
  | 'SLACK_CLIENT_SECRET'
>;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The console's settings, or undefined when it is off; problems go to `issues`. */
export function consoleConfig(
  env: ConsoleEnv | undefined,
  raw: Record<string, string | undefined>,
  issues: ConfigIssue[],
): ConsoleConfig | undefined {
  const has = (name: string) => raw[name] !== undefined;
  const slackWanted = has('CONSOLE_SLACK_TEAMS') || has('CONSOLE_SLACK_USERS');
  const githubWanted = has('CONSOLE_GITHUB_ORGS') || has('CONSOLE_GITHUB_USERS');
  for (const name of ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET'])
    if (slackWanted && !has(name))
      issues.push({ variable: name, message: 'required with CONSOLE_SLACK_TEAMS / _USERS' });
  for (const name of ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'])
    if (githubWanted && !has(name))
      issues.push({ variable: name, message: 'required with CONSOLE_GITHUB_ORGS / _USERS' });
  if (env === undefined) return undefined;

  const adminLink = env.CONSOLE_ADMIN_LINK ?? env.AGENT_API_URL === undefined;
  const enabled = env.CONSOLE_ENABLED ?? (slackWanted || githubWanted || adminLink);
  if (!enabled) return undefined;
  if (!slackWanted && !githubWanted && !adminLink) {
    issues.push({
      variable: 'CONSOLE_ENABLED',
      message:
        'nobody could sign in: set CONSOLE_SLACK_TEAMS/_USERS, CONSOLE_GITHUB_ORGS/_USERS ' +
        'or CONSOLE_ADMIN_LINK=1',
    });
    return undefined;
  }
  return {
    ...(env.CONSOLE_PUBLIC_URL ? { publicUrl: trimSlash(env.CONSOLE_PUBLIC_URL) } : {}),
    session: {
      ...(env.CONSOLE_SESSION_SECRET ? { secret: env.CONSOLE_SESSION_SECRET } : {}),
      hours: env.CONSOLE_SESSION_HOURS,
    },
    adminLink,
    adminLinkMinutes: env.CONSOLE_ADMIN_LINK_MINUTES,
    ...(slackWanted && env.SLACK_CLIENT_ID && env.SLACK_CLIENT_SECRET
      ? {
          slack: {
            clientId: env.SLACK_CLIENT_ID,
            secret: env.SLACK_CLIENT_SECRET,
            baseUrl: trimSlash(env.CONSOLE_SLACK_URL),
            teams: env.CONSOLE_SLACK_TEAMS,
            users: env.CONSOLE_SLACK_USERS,
          },
        }
      : {}),
    ...(githubWanted && env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET
      ? {
          github: {
            clientId: env.GITHUB_CLIENT_ID,
            secret: env.GITHUB_CLIENT_SECRET,
            webUrl: trimSlash(env.CONSOLE_GITHUB_URL),
            apiUrl: trimSlash(env.GITHUB_API_URL),
            orgs: env.CONSOLE_GITHUB_ORGS,
            users: env.CONSOLE_GITHUB_USERS,
          },
        }
      : {}),
  };
}
