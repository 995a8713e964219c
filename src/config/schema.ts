/**
 * The one zod schema over the environment (config.ts drops empty values first): each
 * variable's type, range and default, with messages that name the rule, never the value.
 */
import { z } from 'zod';
import { DEFAULT_BOT_HANDLE, DEFAULT_COMMAND_WORD } from '../core/command/parse-command.js';
import { REPO_PERMISSIONS } from '../core/ports/repo-access.js';
import { parseDatabaseUrl } from '../store/database-url.js';
import { CONSOLE_ENV_SHAPE } from './console-variables.js';
import { flag, httpUrl, idList, wholeNumber } from './value-schemas.js';

/** A client secret shorter than any a platform issues is a paste cut short or a placeholder. */
const CLIENT_SECRET_RULE =
  "must be at least 16 characters: the app's whole client secret, as its settings page shows it";

/** Entra ids (app, tenant, object): GUIDs. */
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const ASSOCIATIONS = [
  'OWNER',
  'MEMBER',
  'COLLABORATOR',
  'CONTRIBUTOR',
  'FIRST_TIME_CONTRIBUTOR',
  'FIRST_TIMER',
  'MANNEQUIN',
  'NONE',
] as const;

/** An https URL (plain http only on loopback, for a local fake). */
const localOrHttps = httpUrl.refine(
  (url) => url.startsWith('https:') || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(url),
  { message: 'must be an https URL (http only on localhost, for a local fake)' },
);

/** The one schema over the environment (after empty values are dropped). */
export const EnvSchema = z.object({
  PORT: wholeNumber(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .refine(isDatabaseUrl, 'must be sqlite:PATH, a file path, or postgres://…')
    .default('./data/agent-relay.db'),
  AGENT_API_URL: httpUrl.optional(),
  AGENT_API_KEY: z.string().optional(),
  POLL_INTERVAL_MS: wholeNumber(50, 3_600_000).default(2000),
  TRACKER_MODE: z.enum(['batch', 'per-run'], { message: 'must be batch or per-run' }).optional(),
  MAX_PROMPT_CHARS: wholeNumber(100, 1_000_000).default(20_000),
  SHUTDOWN_TIMEOUT_MS: wholeNumber(0, 600_000).default(10_000),
  LEASE_MS: wholeNumber(1_000, 3_600_000).default(120_000),
  PROGRESS_READS_PER_MINUTE: wholeNumber(0, 100_000).default(60),
  // Deprecated, no effect: still accepted (and checked) so existing configurations start.
  INGRESS_BURST_PER_SECOND: wholeNumber(0, 1_000_000).default(40),
  RETENTION_DAYS: wholeNumber(0, 36_500).default(7),
  RUN_RETENTION_DAYS: wholeNumber(0, 36_500).default(90),
  EMULATOR_FAST: flag.default(false),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SLACK_SIGNING_SECRET: z.string().optional(),
  SLACK_BOT_TOKEN: z.string().startsWith('xoxb-', 'must be a bot token (xoxb-…)').optional(),
  SLACK_APP_TOKEN: z.string().startsWith('xapp-', 'must be an app-level token (xapp-…)').optional(),
  SLACK_API_URL: httpUrl.optional(),
  SLACK_COMMAND: z
    .string()
    .regex(/^\/[\w-]+$/, 'must look like /agent')
    .default(DEFAULT_COMMAND_WORD),
  SLACK_ALLOWED_CHANNELS: idList('Slack channel ids (C0123…)', /^[A-Z0-9]{2,}$/).default([]),
  SLACK_ALLOWED_USERS: idList('Slack user ids (U0123…)', /^[A-Z0-9]{2,}$/).default([]),
  SLACK_REPLY_WITHOUT_MENTION: flag.default(true),
  SLACK_ALLOWED_TEAMS: idList(
    'Slack team ids (T0123…) or Enterprise Grid organisation ids (E0123…)',
    /^[TE][A-Z0-9]{2,}$/,
  ).default([]),
  SLACK_ALLOW_ANY_WORKSPACE: flag.default(false),
  SLACK_ADMIN_USERS: idList('Slack user ids (U0123…)', /^[A-Z0-9]{2,}$/).default([]),
  SLACK_ALLOW_EXTERNAL_USERS: flag.default(false),
  SLACK_ALLOW_GUESTS: flag.default(false),
  SLACK_CLIENT_ID: z
    .string()
    .regex(/^\d+\.\d+$/, 'must be a Slack client id (digits.digits)')
    .optional(),
  SLACK_CLIENT_SECRET: z.string().min(16, CLIENT_SECRET_RULE).optional(),
  SLACK_STATE_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  SLACK_TOKEN_ENCRYPTION_KEY: z
    .string()
    .refine(isKey32, 'must be 32 random bytes, base64 (openssl rand -base64 32)')
    .optional(),
  GITHUB_WEBHOOK_SECRET: z.string().optional(),
  GITHUB_WEBHOOK_SECRET_PREVIOUS: z.string().optional(),
  GITHUB_APP_ID: wholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
  GITHUB_PRIVATE_KEY: z.string().optional(),
  GITHUB_PRIVATE_KEY_PATH: z.string().optional(),
  GITHUB_TOKEN: z.string().optional(),
  GITHUB_API_URL: httpUrl.default('https://api.github.com'),
  GITHUB_BOT_HANDLE: z
    .string()
    .transform((s) => s.replace(/^@/, ''))
    .pipe(z.string().regex(/^[A-Za-z0-9-]+(\[bot\])?$/, 'must be a GitHub login, e.g. agent-relay'))
    .default(DEFAULT_BOT_HANDLE),
  GITHUB_TRIGGER_LABEL: z.string().min(1).default('agent'),
  GITHUB_ALLOWED_ASSOCIATIONS: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.enum(ASSOCIATIONS, { message: `each must be one of ${ASSOCIATIONS.join(', ')}` }))
        .min(1),
    )
    .default(['OWNER', 'MEMBER', 'COLLABORATOR']),
  GITHUB_MIN_PERMISSION: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(
      z.enum(REPO_PERMISSIONS, {
        message: `must be one of ${REPO_PERMISSIONS.join(', ')}`,
      }),
    )
    .default('write'),
  LINEAR_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  LINEAR_ACCESS_TOKEN: z.string().min(1).optional(),
  LINEAR_CLIENT_ID: z.string().min(1).optional(),
  LINEAR_CLIENT_SECRET: z.string().min(16, CLIENT_SECRET_RULE).optional(),
  LINEAR_TOKEN_ENCRYPTION_KEY: z
    .string()
    .refine(isKey32, 'must be 32 random bytes, base64 (openssl rand -base64 32)')
    .optional(),
  LINEAR_ALLOWED_ORGANIZATIONS: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .default([]),
  LINEAR_API_URL: httpUrl
    .refine(
      (url) =>
        url.startsWith('https:') || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(url),
      { message: 'must be an https URL (http only on localhost, for a local fake)' },
    )
    .default('https://api.linear.app/graphql'),
  LINEAR_ALLOWED_TEAMS: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .default([]),
  JIRA_BASE_URL: httpUrl
    .refine(
      (url) =>
        url.startsWith('https:') || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(url),
      { message: 'must be an https URL (http only on localhost, for a local fake)' },
    )
    .optional(),
  JIRA_EMAIL: z.string().trim().min(3).optional(),
  JIRA_API_TOKEN: z.string().min(1).optional(),
  JIRA_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  JIRA_ALLOWED_PROJECTS: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.string().regex(/^[A-Z][A-Z0-9_]{0,254}$/, {
          message: 'each must be a Jira project key, e.g. PROJ',
        }),
      ),
    )
    .default([]),
  JIRA_BOT_HANDLE: z
    .string()
    .transform((s) => s.trim().replace(/^@/, ''))
    .pipe(z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a handle, e.g. agent-relay'))
    .default(DEFAULT_BOT_HANDLE),
  JIRA_TRIGGER_LABEL: z.string().trim().min(1).default('agent'),
  JIRA_ACCOUNT_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9:_-]{1,128}$/, 'must be an Atlassian account id (GET /rest/api/3/myself)')
    .optional(),
  JIRA_START_TRANSITION: z.string().trim().min(1).max(255).optional(),
  JIRA_CLOUD_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/, "must be the site's cloud id (admin.atlassian.com, after /s/)")
    .optional(),
  JIRA_CLIENT_ID: z.string().trim().min(1).optional(),
  JIRA_CLIENT_SECRET: z.string().min(16, CLIENT_SECRET_RULE).optional(),
  JIRA_TOKEN_ENCRYPTION_KEY: z
    .string()
    .refine(isKey32, 'must be 32 random bytes, base64 (openssl rand -base64 32)')
    .optional(),
  JIRA_ALLOWED_SITES: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) =>
          x
            .trim()
            .toLowerCase()
            .replace(/^https?:\/\//, '')
            .replace(/\/+$/, ''),
        )
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.string().regex(/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/, {
          message: 'each must be a Jira site host name, e.g. acme.atlassian.net',
        }),
      ),
    )
    .default([]),
  JIRA_AUTH_URL: localOrHttps.default('https://auth.atlassian.com'),
  JIRA_API_URL: localOrHttps.default('https://api.atlassian.com'),
  TEAMS_APP_ID: z
    .string()
    .trim()
    .regex(GUID, "must be the bot's Microsoft App ID (a GUID)")
    .optional(),
  TEAMS_APP_PASSWORD: z.string().min(16, CLIENT_SECRET_RULE).optional(),
  TEAMS_TENANT_ID: z
    .string()
    .trim()
    .regex(GUID, "must be the Entra tenant id (a GUID) the bot's app is registered in")
    .optional(),
  TEAMS_ALLOWED_TENANTS: idList('Entra tenant ids (GUIDs)', GUID).default([]),
  TEAMS_ALLOWED_USERS: idList('Entra object ids of people (GUIDs)', GUID).default([]),
  TEAMS_ALLOWED_CHANNELS: idList(
    'Teams conversation ids (19:…@thread.tacv2)',
    /^[A-Za-z0-9][A-Za-z0-9:@._=+-]{0,299}$/,
  ).default([]),
  TEAMS_ADMIN_USERS: idList('Entra object ids of people (GUIDs)', GUID).default([]),
  TEAMS_ALLOW_GUESTS: flag.default(false),
  TEAMS_BOT_HANDLE: z
    .string()
    .transform((s) => s.trim().replace(/^@/, ''))
    .pipe(z.string().regex(/^[A-Za-z0-9 ._-]{1,100}$/, "must be the bot's name, e.g. agent-relay"))
    .default(DEFAULT_BOT_HANDLE),
  TEAMS_CLOUD: z
    .string()
    .trim()
    .transform((s) => s.toLowerCase())
    .pipe(
      z.enum(['public', 'usgov', 'usgovdod', 'china'], {
        message: 'must be Public, USGov, USGovDoD or China',
      }),
    )
    .default('public'),
  LOG_LEVEL: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(
      z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
        message: 'must be trace, debug, info, warn, error, fatal or silent',
      }),
    )
    .default('info'),
  LOG_PRETTY: flag.optional(),
  ...CONSOLE_ENV_SHAPE,
});
export type Env = z.infer<typeof EnvSchema>;

function isKey32(text: string): boolean {
  return /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$/.test(text.trim());
}

function isDatabaseUrl(url: string): boolean {
  try {
    parseDatabaseUrl(url);
    return true;
  } catch {
    return false;
  }
}
