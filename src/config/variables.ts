/**
 * Every environment variable agent-relay reads, each declared once: its name, its schema
 * (type, range, default as zod reads it), its meaning and default in the operator guide's
 * words, and whether it is a secret (and where in `Config` its value lands). The one zod
 * schema (`EnvSchema`, schema.ts) and its `Env` type are built from this list, each row of the
 * operator guide's table is made of an entry (test/config/variables.test.ts), and
 * `redactedConfig` and the logger's redaction derive their secret names from it. A new
 * variable is one entry here and its row in the guide.
 */
import { z } from 'zod';
import { DEFAULT_BOT_HANDLE, DEFAULT_COMMAND_WORD } from '../core/command/parse-command.js';
import { REPO_PERMISSIONS } from '../core/ports/repo-access.js';
import { parseDatabaseUrl } from '../store/database-url.js';
import { CONSOLE_VARIABLES } from './console-variables.js';
import { flag, httpUrl, idList, wholeNumber } from './value-schemas.js';

export interface ConfigVariable {
  name: string;
  /** How zod reads the value (after empty values are dropped); messages name the rule, never the value. */
  schema: z.ZodType;
  /** Its row in docs/operating.md, word for word (markdown); ` (secret)` follows a secret's. */
  meaning: string;
  default: string;
  /** Its value never appears in a log line, an error message or a printed config. */
  secret?: boolean;
  /**
   * A secret's field names in `Config`, where its value lands: a field of any of these names,
   * at any depth, is redacted in a printed config and in a log line (redact.ts, logger.ts).
   */
  fields?: readonly string[];
}

/** A client secret shorter than any a platform issues is a paste cut short or a placeholder. */
const CLIENT_SECRET_RULE =
  "must be at least 16 characters: the app's whole client secret, as its settings page shows it";

const KEY32_RULE = 'must be 32 random bytes, base64 (openssl rand -base64 32)';

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

/** Entra ids (app, tenant, object): GUIDs. */
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

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

/** An https URL (http only on loopback, for a local fake). */
const httpsUrl = httpUrl.refine(
  (url) => url.startsWith('https:') || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(url),
  { message: 'must be an https URL (http only on localhost, for a local fake)' },
);

/** A comma-separated list, each item trimmed (and changed by `each`). */
const commaList = (each: (s: string) => string = (s) => s) =>
  z.string().transform((s) =>
    s
      .split(',')
      .map((x) => each(x.trim()))
      .filter(Boolean),
  );

/** The list with each entry's own types, for the schema (schema.ts); read `CONFIG_VARIABLES`. */
export const VARIABLES = [
  {
    name: 'PORT',
    schema: wholeNumber(0, 65535).default(3000),
    meaning: 'port of the one HTTP server (`0`: any free port)',
    default: '`3000`',
  },
  {
    name: 'HOST',
    schema: z.string().min(1).default('0.0.0.0'),
    meaning: 'address the HTTP server binds',
    default: '`0.0.0.0`',
  },
  {
    name: 'DATABASE_URL',
    schema: z
      .string()
      .refine(isDatabaseUrl, 'must be sqlite:PATH, a file path, or postgres://…')
      .default('./data/agent-relay.db'),
    meaning:
      '`sqlite:PATH`, a plain file path, or `postgres://…`: a password in it is masked in logs',
    default: '`./data/agent-relay.db`',
    secret: true, // a postgres URL may carry a password; printed with the password masked
    fields: ['databaseUrl'],
  },
  {
    name: 'AGENT_API_URL',
    schema: httpUrl.optional(),
    meaning: "the Agent Run Service's versioned root (`…/api/v1`)",
    default: 'unset: embedded emulator',
  },
  {
    name: 'AGENT_API_KEY',
    schema: z.string().optional(),
    meaning: 'bearer key for the service; checked at start-up',
    default: 'required with `AGENT_API_URL`',
    secret: true,
    fields: ['apiKey'],
  },
  {
    name: 'POLL_INTERVAL_MS',
    schema: wholeNumber(50, 3_600_000).default(2000),
    meaning: "the tracker's base interval",
    default: '`2000`',
  },
  {
    name: 'TRACKER_MODE',
    schema: z.enum(['batch', 'per-run'], { message: 'must be batch or per-run' }).optional(),
    meaning: '`batch` (list endpoint, few requests) or `per-run` (one detail request per run)',
    default: '`batch`',
  },
  {
    name: 'MAX_PROMPT_CHARS',
    schema: wholeNumber(100, 1_000_000).default(20_000),
    meaning: 'longest prompt (with thread/issue context) sent to the service',
    default: '`20000`',
  },
  {
    name: 'SLACK_SIGNING_SECRET',
    schema: z.string().optional(),
    meaning: 'with `SLACK_BOT_TOKEN`: enables Slack in HTTP mode (`POST /slack/events`)',
    default: 'unset: Slack off',
    secret: true,
    fields: ['signingSecret'],
  },
  {
    name: 'SLACK_BOT_TOKEN',
    schema: z.string().startsWith('xoxb-', 'must be a bot token (xoxb-…)').optional(),
    meaning: 'bot token `xoxb-…`',
    default: 'unset: Slack off',
    secret: true,
    fields: ['botToken'],
  },
  {
    name: 'SLACK_APP_TOKEN',
    schema: z.string().startsWith('xapp-', 'must be an app-level token (xapp-…)').optional(),
    meaning: 'app-level token `xapp-…`: Socket Mode instead of HTTP',
    default: 'unset',
    secret: true,
    fields: ['appToken'],
  },
  {
    name: 'SLACK_API_URL',
    schema: httpUrl.optional(),
    meaning: 'Slack Web API base',
    default: '`https://slack.com/api/`',
  },
  {
    name: 'SLACK_COMMAND',
    schema: z
      .string()
      .regex(/^\/[\w-]+$/, 'must look like /agent')
      .default(DEFAULT_COMMAND_WORD),
    meaning: 'the slash command (also the line command shown in help)',
    default: `\`${DEFAULT_COMMAND_WORD}\``,
  },
  {
    name: 'SLACK_ALLOWED_CHANNELS',
    schema: idList('Slack channel ids (C0123…)', /^[A-Z0-9]{2,}$/).default([]),
    meaning: 'allowlist of channel ids, comma-separated',
    default: 'every channel',
  },
  {
    name: 'SLACK_ALLOWED_USERS',
    schema: idList('Slack user ids (U0123…)', /^[A-Z0-9]{2,}$/).default([]),
    meaning: 'allowlist of user ids, comma-separated',
    default: 'everyone',
  },
  {
    name: 'SLACK_REPLY_WITHOUT_MENTION',
    schema: flag.default(true),
    meaning: 'a plain reply in a thread that has a run is a follow-up (`0`: only mentions)',
    default: '`1`',
  },
  {
    name: 'SLACK_ALLOWED_TEAMS',
    schema: idList(
      'Slack team ids (T0123…) or Enterprise Grid organisation ids (E0123…)',
      /^[TE][A-Z0-9]{2,}$/,
    ).default([]),
    meaning:
      'workspaces (team ids `T…`) and Enterprise Grid organisations (`E…`) that may install the app and use it, comma-separated; checked when an install completes and on every event, command and interaction. With OAuth install, this or `SLACK_ALLOW_ANY_WORKSPACE=1` is required',
    default: 'unset: with `SLACK_BOT_TOKEN` alone, its own workspace only',
  },
  {
    name: 'SLACK_ALLOW_ANY_WORKSPACE',
    schema: flag.default(false),
    meaning:
      'OAuth install: any Slack workspace may install the app and start runs on your Agent Run Service (a warning at start-up); instead of `SLACK_ALLOWED_TEAMS`',
    default: '`0`',
  },
  {
    name: 'SLACK_ADMIN_USERS',
    schema: idList('Slack user ids (U0123…)', /^[A-Z0-9]{2,}$/).default([]),
    meaning:
      "user ids of agent-relay's Slack admins, comma-separated: they alone may list every run, cancel anyone's run and change a channel's defaults",
    default: "unset: the workspace's own admins and owners (`users.info`)",
  },
  {
    name: 'SLACK_ALLOW_EXTERNAL_USERS',
    schema: flag.default(false),
    meaning: '`1`: people of another organisation in a Slack Connect channel may use the bot',
    default: '`0`: refused',
  },
  {
    name: 'SLACK_ALLOW_GUESTS',
    schema: flag.default(false),
    meaning: '`1`: multi- and single-channel guests may use the bot',
    default: '`0`: refused',
  },
  {
    name: 'SLACK_CLIENT_ID',
    schema: z
      .string()
      .regex(/^\d+\.\d+$/, 'must be a Slack client id (digits.digits)')
      .optional(),
    meaning: "the Slack app's client id (OAuth install, with the two below)",
    default: 'unset',
  },
  {
    name: 'SLACK_CLIENT_SECRET',
    schema: z.string().min(16, CLIENT_SECRET_RULE).optional(),
    meaning: "the Slack app's client secret",
    default: 'unset',
    secret: true,
    fields: ['clientSecret', 'secret'],
  },
  {
    name: 'SLACK_STATE_SECRET',
    schema: z.string().min(16, 'must be at least 16 characters').optional(),
    meaning:
      'turns on OAuth install in any number of workspaces (`GET /slack/install`, `GET /slack/oauth_redirect`); 16+ characters',
    default: 'unset: one workspace (`SLACK_BOT_TOKEN`)',
    secret: true,
    fields: ['stateSecret'],
  },
  {
    name: 'SLACK_TOKEN_ENCRYPTION_KEY',
    schema: z.string().refine(isKey32, KEY32_RULE).optional(),
    meaning:
      "32 random bytes, base64 (`openssl rand -base64 32`): seals each installed workspace's tokens in the database with AES-256-GCM",
    default: 'required with OAuth install',
    secret: true,
    fields: ['encryptionKey'],
  },
  {
    name: 'GITHUB_WEBHOOK_SECRET',
    schema: z.string().optional(),
    meaning: 'enables GitHub (`POST /github/webhooks`)',
    default: 'unset: GitHub off',
    secret: true,
    fields: ['webhookSecret'],
  },
  {
    name: 'GITHUB_WEBHOOK_SECRET_PREVIOUS',
    schema: z.string().optional(),
    meaning: 'the previous secret, still accepted while rotating',
    default: 'unset',
    secret: true,
    fields: ['previousWebhookSecret'],
  },
  {
    name: 'GITHUB_APP_ID',
    schema: wholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
    meaning: 'GitHub App id (App auth, with a private key)',
    default: 'unset',
  },
  {
    name: 'GITHUB_PRIVATE_KEY',
    schema: z.string().optional(),
    meaning: "the App's private key, PEM; `\\n` escapes allowed",
    default: 'unset',
    secret: true,
    fields: ['privateKey'],
  },
  {
    name: 'GITHUB_PRIVATE_KEY_PATH',
    schema: z.string().optional(),
    meaning: "a file holding the App's private key, instead of `GITHUB_PRIVATE_KEY`",
    default: 'unset',
  },
  {
    name: 'GITHUB_TOKEN',
    schema: z.string().optional(),
    meaning: 'token auth instead of an App',
    default: 'unset',
    secret: true,
    fields: ['token'],
  },
  {
    name: 'GITHUB_API_URL',
    schema: httpUrl.default('https://api.github.com'),
    meaning: 'REST base (GitHub Enterprise Server: `https://HOST/api/v3`)',
    default: '`https://api.github.com`',
  },
  {
    name: 'GITHUB_BOT_HANDLE',
    schema: z
      .string()
      .transform((s) => s.replace(/^@/, ''))
      .pipe(
        z.string().regex(/^[A-Za-z0-9-]+(\[bot\])?$/, 'must be a GitHub login, e.g. agent-relay'),
      )
      .default(DEFAULT_BOT_HANDLE),
    meaning: 'the @-mention that triggers',
    default: `\`${DEFAULT_BOT_HANDLE}\``,
  },
  {
    name: 'GITHUB_TRIGGER_LABEL',
    schema: z.string().min(1).default('agent'),
    meaning: 'the label that starts a run',
    default: '`agent`',
  },
  {
    name: 'GITHUB_ALLOWED_ASSOCIATIONS',
    schema: commaList((x) => x.toUpperCase())
      .pipe(
        z
          .array(
            z.enum(ASSOCIATIONS, { message: `each must be one of ${ASSOCIATIONS.join(', ')}` }),
          )
          .min(1),
      )
      .default(['OWNER', 'MEMBER', 'COLLABORATOR']),
    meaning: 'author associations that may trigger (a first filter, checked without asking GitHub)',
    default: '`OWNER,MEMBER,COLLABORATOR`',
  },
  {
    name: 'GITHUB_MIN_PERMISSION',
    schema: z
      .string()
      .transform((s) => s.trim().toLowerCase())
      .pipe(
        z.enum(REPO_PERMISSIONS, {
          message: `must be one of ${REPO_PERMISSIONS.join(', ')}`,
        }),
      )
      .default('write'),
    meaning:
      'the least repository access (`read`, `triage`, `write`, `maintain` or `admin`) a person needs for every request, checked with GitHub and cached for 5 minutes ([security](security.md#github-repository-access))',
    default: '`write`',
  },
  {
    name: 'LINEAR_WEBHOOK_SECRET',
    schema: z.string().min(16, 'must be at least 16 characters').optional(),
    meaning:
      "enables Linear (`POST /linear/webhooks`): the signing secret of the app's webhook, 16+ characters ([setup](setup-linear.md))",
    default: 'unset: Linear off',
    secret: true,
    fields: ['webhookSecret'],
  },
  {
    name: 'LINEAR_ACCESS_TOKEN',
    schema: z.string().min(1).optional(),
    meaning:
      "the Linear app's token, installed with `actor=app`, in its one workspace; used as it is, never refreshed: a personal API key does not expire, an OAuth access token does after 24 hours ([setup-linear.md](setup-linear.md#3-install-it))",
    default: 'required with `LINEAR_WEBHOOK_SECRET`',
    secret: true,
    fields: ['token'],
  },
  {
    name: 'LINEAR_CLIENT_ID',
    schema: z.string().min(1).optional(),
    meaning:
      "the Linear app's client id: turns on OAuth install in any number of workspaces (`GET /linear/install`, `GET /linear/oauth_redirect`), with the three below",
    default: 'unset: one workspace (`LINEAR_ACCESS_TOKEN`)',
  },
  {
    name: 'LINEAR_CLIENT_SECRET',
    schema: z.string().min(16, CLIENT_SECRET_RULE).optional(),
    meaning: "the Linear app's client secret",
    default: 'required with OAuth install',
    secret: true,
    fields: ['clientSecret'],
  },
  {
    name: 'LINEAR_TOKEN_ENCRYPTION_KEY',
    schema: z.string().refine(isKey32, KEY32_RULE).optional(),
    meaning:
      "32 random bytes, base64 (`openssl rand -base64 32`): seals each installed workspace's token in the database with AES-256-GCM",
    default: 'required with OAuth install',
    secret: true,
    fields: ['encryptionKey'],
  },
  {
    name: 'LINEAR_ALLOWED_ORGANIZATIONS',
    schema: commaList().default([]),
    meaning:
      'Linear organization ids or URL keys that may install the app and whose webhooks are taken (checked on every event, [security](security.md#linear-workspaces)); others are refused and nothing of theirs is kept',
    default: 'unset: only the workspace of `LINEAR_ACCESS_TOKEN`; required with OAuth install',
  },
  {
    name: 'LINEAR_API_URL',
    schema: httpsUrl.default('https://api.linear.app/graphql'),
    meaning: "Linear's GraphQL endpoint (https; plain http only on localhost, for a fake)",
    default: '`https://api.linear.app/graphql`',
  },
  {
    name: 'LINEAR_ALLOWED_TEAMS',
    schema: commaList().default([]),
    meaning:
      "Linear team keys (`ENG`) or ids whose issues may start runs; `<organization>/<key>` (`acme/ENG`, the organization by id or URL key) names one workspace's team; others get a polite refusal in the session",
    default: 'unset: every team',
  },
  {
    name: 'JIRA_BASE_URL',
    schema: httpsUrl.optional(),
    meaning:
      'the Jira site, e.g. `https://acme.atlassian.net` (https; plain http only on localhost, for a fake): turns Jira on (`POST /jira/webhooks`) with the four below ([setup](setup-jira.md))',
    default: 'unset: Jira off',
  },
  {
    name: 'JIRA_EMAIL',
    schema: z.string().trim().min(3).optional(),
    meaning:
      "the email of the relay's Jira account; with `JIRA_API_TOKEN`, the basic auth of every Jira request",
    default: 'required with `JIRA_BASE_URL`',
  },
  {
    name: 'JIRA_API_TOKEN',
    schema: z.string().min(1).optional(),
    meaning: "the API token of the relay's Jira account",
    default: 'required with `JIRA_BASE_URL`',
    secret: true,
    fields: ['apiToken'],
  },
  {
    name: 'JIRA_WEBHOOK_SECRET',
    schema: z.string().min(16, 'must be at least 16 characters').optional(),
    meaning:
      "the secret Jira's webhook signs its deliveries with (`X-Hub-Signature`), 16+ characters",
    default: 'required with `JIRA_BASE_URL`',
    secret: true,
    fields: ['webhookSecret'],
  },
  {
    name: 'JIRA_ALLOWED_PROJECTS',
    schema: commaList((x) => x.toUpperCase())
      .pipe(
        z.array(
          z.string().regex(/^[A-Z][A-Z0-9_]{0,254}$/, {
            message: 'each must be a Jira project key, e.g. PROJ',
          }),
        ),
      )
      .default([]),
    meaning:
      "Jira project keys (`PROJ`) whose issues may start runs, on every site; every other project's deliveries are answered and forgotten",
    default: 'required with `JIRA_BASE_URL` or `JIRA_CLIENT_ID`',
  },
  {
    name: 'JIRA_BOT_HANDLE',
    schema: z
      .string()
      .transform((s) => s.trim().replace(/^@/, ''))
      .pipe(z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a handle, e.g. agent-relay'))
      .default(DEFAULT_BOT_HANDLE),
    meaning:
      'the @-mention, as plain text in a comment, that addresses the relay (a real mention of its account does too), and the one every notice tells people to write',
    default: `\`${DEFAULT_BOT_HANDLE}\``,
  },
  {
    name: 'JIRA_TRIGGER_LABEL',
    schema: z.string().trim().min(1).default('agent'),
    meaning: 'the Jira label that starts a run when put on an issue',
    default: '`agent`',
  },
  {
    name: 'JIRA_ACCOUNT_ID',
    schema: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9:_-]{1,128}$/, 'must be an Atlassian account id (GET /rest/api/3/myself)')
      .optional(),
    meaning:
      "the relay's Atlassian account id: assigning an issue to it, or mentioning it, starts a run",
    default: 'asked of Jira at start (`GET /rest/api/3/myself`)',
  },
  {
    name: 'JIRA_START_TRANSITION',
    schema: z.string().trim().min(1).max(255).optional(),
    meaning:
      'the transition an issue takes when a run starts, by its name or its target status (`In Progress`); never one into a done status',
    default: 'unset: the status stays',
  },
  {
    name: 'JIRA_CLOUD_ID',
    schema: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{1,64}$/, "must be the site's cloud id (admin.atlassian.com, after /s/)")
      .optional(),
    meaning:
      "the site's cloud id (admin.atlassian.com → Apps → Sites, after `/s/` in the address): every call goes through Atlassian's gateway (`JIRA_API_URL`/ex/jira/{cloudId}) with `JIRA_EMAIL` and `JIRA_API_TOKEN`, as a service account's scoped API token needs; links and thread keys still name `JIRA_BASE_URL`",
    default: 'unset: calls go to `JIRA_BASE_URL`',
  },
  {
    name: 'JIRA_CLIENT_ID',
    schema: z.string().trim().min(1).optional(),
    meaning:
      "the client id of an OAuth 2.0 (3LO) app from Atlassian's developer console: turns on install on any number of Jira Cloud sites (`GET /jira/install`, `GET /jira/oauth_redirect`), with the four below, instead of `JIRA_BASE_URL` ([setup](setup-jira.md#many-sites-an-oauth-app))",
    default: 'unset: one site (`JIRA_BASE_URL`)',
  },
  {
    name: 'JIRA_CLIENT_SECRET',
    schema: z.string().min(16, CLIENT_SECRET_RULE).optional(),
    meaning:
      "the OAuth app's secret: exchanges codes, refreshes tokens, and checks the JWT Jira signs the app's webhooks with",
    default: 'required with `JIRA_CLIENT_ID`',
    secret: true,
    fields: ['clientSecret'],
  },
  {
    name: 'JIRA_TOKEN_ENCRYPTION_KEY',
    schema: z.string().refine(isKey32, KEY32_RULE).optional(),
    meaning:
      "32 random bytes, base64 (`openssl rand -base64 32`): seals each installed site's tokens in the database with AES-256-GCM",
    default: 'required with `JIRA_CLIENT_ID`',
    secret: true,
    fields: ['encryptionKey'],
  },
  {
    name: 'JIRA_ALLOWED_SITES',
    schema: commaList((x) =>
      x
        .toLowerCase()
        .replace(/^https?:\/\//, '')
        .replace(/\/+$/, ''),
    )
      .pipe(
        z.array(
          z.string().regex(/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/, {
            message: 'each must be a Jira site host name, e.g. acme.atlassian.net',
          }),
        ),
      )
      .default([]),
    meaning:
      'Jira site host names (`acme.atlassian.net`) that may install the app and whose webhooks are taken; an install that reaches no allowed site is refused and its token dropped',
    default: 'required with `JIRA_CLIENT_ID`',
  },
  {
    name: 'JIRA_AUTH_URL',
    schema: httpsUrl.default('https://auth.atlassian.com'),
    meaning:
      "Atlassian's authorization server: the consent page and `/oauth/token` (https; plain http only on localhost, for a fake)",
    default: '`https://auth.atlassian.com`',
  },
  {
    name: 'JIRA_API_URL',
    schema: httpsUrl.default('https://api.atlassian.com'),
    meaning:
      "Atlassian's API gateway: `/oauth/token/accessible-resources`, and each site's REST API under `/ex/jira/{cloudId}` (OAuth, or `JIRA_CLOUD_ID`) (https; plain http only on localhost, for a fake)",
    default: '`https://api.atlassian.com`',
  },
  {
    name: 'TEAMS_APP_ID',
    schema: z.string().trim().regex(GUID, "must be the bot's Microsoft App ID (a GUID)").optional(),
    meaning: "the Teams bot's Microsoft App ID (a GUID): turns Teams on (`POST /teams/messages`)",
    default: 'unset: Teams off',
  },
  {
    name: 'TEAMS_APP_PASSWORD',
    schema: z.string().min(16, CLIENT_SECRET_RULE).optional(),
    meaning: "the bot app's client secret, for the relay's Bot Connector token",
    default: 'required with `TEAMS_APP_ID`, unless `TEAMS_MANAGED_IDENTITY_CLIENT_ID` is set',
    secret: true,
    fields: ['appPassword'],
  },
  {
    name: 'TEAMS_MANAGED_IDENTITY_CLIENT_ID',
    schema: z
      .string()
      .trim()
      .transform((s) => s.toLowerCase())
      .pipe(
        z
          .string()
          .regex(
            new RegExp(`^system$|${GUID.source}`),
            "must be a managed identity's client id (a GUID) or `system`",
          ),
      )
      .optional(),
    meaning:
      "instead of `TEAMS_APP_PASSWORD`, the Bot Connector token comes from an Azure managed identity (through the Teams SDK): its client id (`TEAMS_APP_ID` itself, or another user-assigned identity the app's federated credential trusts), or `system` ([setup-teams.md](setup-teams.md))",
    default: 'unset: the client secret',
  },
  {
    name: 'TEAMS_TENANT_ID',
    schema: z
      .string()
      .trim()
      .regex(GUID, "must be the Entra tenant id (a GUID) the bot's app is registered in")
      .optional(),
    meaning: "the Entra tenant the bot's app is registered in (single-tenant)",
    default: 'required with `TEAMS_APP_ID`',
  },
  {
    name: 'TEAMS_ALLOWED_TENANTS',
    schema: idList('Entra tenant ids (GUIDs)', GUID).default([]),
    meaning: 'Entra tenant ids whose conversations may use the bot; any other is refused with 401',
    default: 'required with `TEAMS_APP_ID`',
  },
  {
    name: 'TEAMS_ALLOWED_USERS',
    schema: idList('Entra object ids of people (GUIDs)', GUID).default([]),
    meaning: 'Entra object ids of the people who may use the bot',
    default: 'unset: anyone in an allowed tenant',
  },
  {
    name: 'TEAMS_ALLOWED_CHANNELS',
    schema: idList(
      'Teams conversation ids (19:…@thread.tacv2)',
      /^[A-Za-z0-9][A-Za-z0-9:@._=+-]{0,299}$/,
    ).default([]),
    meaning: 'Teams conversation ids (`19:…@thread.tacv2`, chats too) where the bot acts',
    default: 'unset: any',
  },
  {
    name: 'TEAMS_ADMIN_USERS',
    schema: idList('Entra object ids of people (GUIDs)', GUID).default([]),
    meaning:
      "Entra object ids of agent-relay's Teams admins: they stop or cancel anyone's run and change a place's defaults",
    default: 'unset: none',
  },
  {
    name: 'TEAMS_ALLOW_GUESTS',
    schema: flag.default(false),
    meaning: 'guests and people of other tenants may use the bot too (`1`/`0`)',
    default: '`0`',
  },
  {
    name: 'TEAMS_BOT_HANDLE',
    schema: z
      .string()
      .transform((s) => s.trim().replace(/^@/, ''))
      .pipe(
        z.string().regex(/^[A-Za-z0-9 ._-]{1,100}$/, "must be the bot's name, e.g. agent-relay"),
      )
      .default(DEFAULT_BOT_HANDLE),
    meaning: "the bot's name as a Teams mention shows it",
    default: `\`${DEFAULT_BOT_HANDLE}\``,
  },
  {
    name: 'TEAMS_CLOUD',
    schema: z
      .string()
      .trim()
      .transform((s) => s.toLowerCase())
      .pipe(
        z.enum(['public', 'usgov', 'usgovdod', 'china'], {
          message: 'must be Public, USGov, USGovDoD or China',
        }),
      )
      .default('public'),
    meaning:
      "the Microsoft cloud whose endpoints the bot uses: `Public`, `USGov`, `USGovDoD` or `China` (the Teams SDK's names)",
    default: '`Public`',
  },
  {
    name: 'LOG_LEVEL',
    schema: z
      .string()
      .transform((s) => s.toLowerCase())
      .pipe(
        z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
          message: 'must be trace, debug, info, warn, error, fatal or silent',
        }),
      )
      .default('info'),
    meaning: '`trace`, `debug`, `info`, `warn`, `error`, `fatal` or `silent`',
    default: '`info`',
  },
  {
    name: 'LOG_PRETTY',
    schema: flag.optional(),
    meaning: 'human-readable logs (`1`/`0`)',
    default: 'pretty on a TTY',
  },
  {
    name: 'SHUTDOWN_TIMEOUT_MS',
    schema: wholeNumber(0, 600_000).default(10_000),
    meaning: 'how long each shutdown phase waits for in-flight work',
    default: '`10000`',
  },
  {
    name: 'LEASE_MS',
    schema: wholeNumber(1_000, 3_600_000).default(120_000),
    meaning:
      "how long a worker's claim on an inbox item or notification lasts before another may take it (min `1000`; a trigger's claim is renewed every third of it while the trigger is in hand); with SQLite, claims left by a previous process are released at start-up",
    default: '`120000`',
  },
  {
    name: 'PROGRESS_READS_PER_MINUTE',
    schema: wholeNumber(0, 100_000).default(60),
    meaning:
      "reads of running runs' progress (the agent's last steps, the set-up events) per minute for all runs together, each run at most every 15 s and not before it has run 15 s; a run someone recently followed up on or asked `status` about goes first ([the budget](agent-api.md#progress-and-the-agents-words)); `0`: status messages show the state only",
    default: '`60`',
  },
  {
    name: 'INGRESS_BURST_PER_SECOND',
    schema: wholeNumber(0, 1_000_000).default(150),
    meaning:
      "Slack/GitHub requests per second (to `/slack/events` and `/github/webhooks`) above which the workers claim no new work until the burst ends, for at most 30 s, so the acknowledgements keep the CPU; a thread's first message waits that long during a burst; `0`: the workers never wait ([why](decisions/acknowledgement-latency.md))",
    default: '`150`',
  },
  {
    name: 'RETENTION_DAYS',
    schema: wholeNumber(0, 36_500).default(7),
    meaning:
      'days finished triggers (handled or failed) and notifications (delivered or given up) stay in the inbox/outbox before they are deleted (the records of "Starting…" messages as well); a redelivery of an event older than that would be taken as new; `0`: kept for ever',
    default: '`7`',
  },
  {
    name: 'RUN_RETENTION_DAYS',
    schema: wholeNumber(0, 36_500).default(90),
    meaning:
      'days a finished run (no longer tracked) stays after its last change before it is deleted with its state history, and a thread with no run left (and nothing waiting for it) with its aliases; a reply in an older thread starts afresh; `0`: kept for ever',
    default: '`90`',
  },
  {
    name: 'EMULATOR_FAST',
    schema: flag.default(false),
    meaning:
      '`1`: the embedded emulator takes the short timings of `emulator --fast`: a run ends in about 0.25 s instead of about 5 s',
    default: '`0`',
  },
  {
    name: 'METRICS_TOKEN',
    schema: z.string().min(16, 'must be at least 16 characters').optional(),
    meaning:
      '`/metrics` answers only requests with `Authorization: Bearer <this>`, 16+ characters; others get 401',
    default: 'unset: `/metrics` open to whoever reaches the port',
    secret: true,
    fields: ['metricsToken'],
  },
  ...CONSOLE_VARIABLES,
] as const satisfies readonly ConfigVariable[];

export const CONFIG_VARIABLES: readonly ConfigVariable[] = VARIABLES;

export const SECRET_VARIABLES: ReadonlySet<string> = new Set(
  CONFIG_VARIABLES.filter((v) => v.secret).map((v) => v.name),
);
