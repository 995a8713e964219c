/**
 * Every environment variable agent-relay reads, with its meaning and default: the single
 * list the operator guide's table is checked against (test/config/variables.test.ts) and the
 * one `redactedConfig` and the logger's redaction derive their secret names from.
 */
import { DEFAULT_BOT_HANDLE, DEFAULT_COMMAND_WORD } from '../core/command/parse-command.js';
import { CONSOLE_VARIABLES } from './console-variables.js';

export interface ConfigVariable {
  name: string;
  meaning: string;
  default: string;
  /** Its value never appears in a log line, an error message or a printed config. */
  secret?: boolean;
}

export const CONFIG_VARIABLES: readonly ConfigVariable[] = [
  { name: 'PORT', meaning: 'port of the one HTTP server (0: any free port)', default: '3000' },
  { name: 'HOST', meaning: 'address the HTTP server binds', default: '0.0.0.0' },
  {
    name: 'DATABASE_URL',
    meaning: '`sqlite:PATH`, a plain file path, or `postgres://…`',
    default: './data/agent-relay.db',
    secret: true, // a postgres URL may carry a password; printed with the password masked
  },
  {
    name: 'AGENT_API_URL',
    meaning: "the Agent Run Service's versioned root (`…/api/v1`)",
    default: 'unset: embedded emulator',
  },
  {
    name: 'AGENT_API_KEY',
    meaning: 'bearer key for the service',
    default: 'required with `AGENT_API_URL`',
    secret: true,
  },
  { name: 'POLL_INTERVAL_MS', meaning: "the tracker's base interval", default: '2000' },
  {
    name: 'TRACKER_MODE',
    meaning: '`batch` (list endpoint, few requests) or `per-run` (one detail request per run)',
    default: 'batch',
  },
  {
    name: 'MAX_PROMPT_CHARS',
    meaning: 'longest prompt (with context) sent to the service',
    default: '20000',
  },
  {
    name: 'SLACK_SIGNING_SECRET',
    meaning: 'with `SLACK_BOT_TOKEN`: enables Slack (HTTP mode, `POST /slack/events`)',
    default: 'unset: Slack off',
    secret: true,
  },
  {
    name: 'SLACK_BOT_TOKEN',
    meaning: 'Slack bot token (`xoxb-…`); with the signing secret or app token enables Slack',
    default: 'unset: Slack off',
    secret: true,
  },
  {
    name: 'SLACK_APP_TOKEN',
    meaning: 'app-level token (`xapp-…`): Socket Mode instead of HTTP',
    default: 'unset',
    secret: true,
  },
  { name: 'SLACK_API_URL', meaning: 'Slack Web API base', default: 'https://slack.com/api/' },
  { name: 'SLACK_COMMAND', meaning: 'the slash command', default: DEFAULT_COMMAND_WORD },
  {
    name: 'SLACK_ALLOWED_CHANNELS',
    meaning: 'allowlist of channel ids (comma-separated)',
    default: 'every channel',
  },
  {
    name: 'SLACK_ALLOWED_USERS',
    meaning: 'allowlist of user ids (comma-separated)',
    default: 'everyone',
  },
  {
    name: 'SLACK_REPLY_WITHOUT_MENTION',
    meaning: 'a plain reply in a thread that has a run is a follow-up (`0`: only mentions)',
    default: '1',
  },
  {
    name: 'SLACK_ALLOWED_TEAMS',
    meaning:
      'workspaces (team ids `T…`) and Enterprise Grid organisations (`E…`) that may install the ' +
      'app and use it; checked when an install completes and on every event, command and ' +
      'interaction. With OAuth install, this or `SLACK_ALLOW_ANY_WORKSPACE` is required',
    default: 'unset: with `SLACK_BOT_TOKEN` alone, its own workspace only',
  },
  {
    name: 'SLACK_ALLOW_ANY_WORKSPACE',
    meaning:
      'OAuth install: any Slack workspace may install the app and start runs (logs a warning ' +
      'at start-up); instead of `SLACK_ALLOWED_TEAMS`',
    default: '0',
  },
  {
    name: 'SLACK_ADMIN_USERS',
    meaning:
      'user ids of Slack admins of agent-relay: they alone may list every run, cancel ' +
      "anyone's run and change a channel's defaults (`config key=value`)",
    default: "unset: the workspace's own admins and owners (Slack's `users.info`)",
  },
  {
    name: 'SLACK_ALLOW_EXTERNAL_USERS',
    meaning: 'people of another organisation in a Slack Connect channel may use the bot (`1`)',
    default: '0: refused',
  },
  {
    name: 'SLACK_ALLOW_GUESTS',
    meaning: 'multi- and single-channel guests of the workspace may use the bot (`1`)',
    default: '0: refused',
  },
  {
    name: 'SLACK_CLIENT_ID',
    meaning:
      "the Slack app's client id: Sign in with Slack for the console, and with the secrets below OAuth install in any number of workspaces",
    default: 'unset: one workspace (`SLACK_BOT_TOKEN`)',
  },
  {
    name: 'SLACK_CLIENT_SECRET',
    meaning: "the app's client secret (console sign-in, OAuth install)",
    default: 'unset',
    secret: true,
  },
  {
    name: 'SLACK_STATE_SECRET',
    meaning: 'turns on OAuth install (`/slack/install`, `/slack/oauth_redirect`); 16+ characters',
    default: 'unset',
    secret: true,
  },
  {
    name: 'SLACK_TOKEN_ENCRYPTION_KEY',
    meaning:
      "32 random bytes, base64: seals installed workspaces' tokens in the database (AES-256-GCM)",
    default: 'unset (required with OAuth install)',
    secret: true,
  },
  {
    name: 'GITHUB_WEBHOOK_SECRET',
    meaning: 'enables GitHub (`POST /github/webhooks`)',
    default: 'unset: GitHub off',
    secret: true,
  },
  {
    name: 'GITHUB_WEBHOOK_SECRET_PREVIOUS',
    meaning: 'the old secret, still accepted while rotating',
    default: 'unset',
    secret: true,
  },
  { name: 'GITHUB_APP_ID', meaning: 'GitHub App id (App auth)', default: 'unset' },
  {
    name: 'GITHUB_PRIVATE_KEY',
    meaning: "the App's private key, PEM (`\\n` escapes allowed)",
    default: 'unset',
    secret: true,
  },
  {
    name: 'GITHUB_PRIVATE_KEY_PATH',
    meaning: "a file holding the App's private key (instead of `GITHUB_PRIVATE_KEY`)",
    default: 'unset',
  },
  {
    name: 'GITHUB_TOKEN',
    meaning: 'token auth instead of an App',
    default: 'unset',
    secret: true,
  },
  {
    name: 'GITHUB_API_URL',
    meaning: 'REST base (GitHub Enterprise Server, fakes)',
    default: 'https://api.github.com',
  },
  {
    name: 'GITHUB_BOT_HANDLE',
    meaning: 'the @-mention that triggers',
    default: DEFAULT_BOT_HANDLE,
  },
  { name: 'GITHUB_TRIGGER_LABEL', meaning: 'label that starts a run', default: 'agent' },
  {
    name: 'GITHUB_ALLOWED_ASSOCIATIONS',
    meaning: 'author associations that may trigger',
    default: 'OWNER,MEMBER,COLLABORATOR',
  },
  {
    name: 'GITHUB_MIN_PERMISSION',
    meaning:
      'the least repository access (read, triage, write, maintain or admin) a person needs to use the bot',
    default: 'write',
  },
  {
    name: 'LINEAR_WEBHOOK_SECRET',
    meaning: "enables Linear (`POST /linear/webhooks`): the webhook's signing secret",
    default: 'unset: Linear off',
    secret: true,
  },
  {
    name: 'LINEAR_ACCESS_TOKEN',
    meaning: "the app's token (`actor=app`) in its one workspace",
    default: 'unset',
    secret: true,
  },
  {
    name: 'LINEAR_CLIENT_ID',
    meaning:
      'turns on OAuth install in any number of workspaces (`/linear/install`, `/linear/oauth_redirect`)',
    default: 'unset: one workspace (`LINEAR_ACCESS_TOKEN`)',
  },
  {
    name: 'LINEAR_CLIENT_SECRET',
    meaning: "the Linear app's client secret (OAuth install)",
    default: 'unset',
    secret: true,
  },
  {
    name: 'LINEAR_TOKEN_ENCRYPTION_KEY',
    meaning: "32 random bytes, base64: seals installed workspaces' tokens in the database",
    default: 'unset (required with OAuth install)',
    secret: true,
  },
  {
    name: 'LINEAR_ALLOWED_ORGANIZATIONS',
    meaning:
      'Linear organization ids or URL keys that may install the app and whose webhooks are taken (checked on every event)',
    default: 'unset: only the workspace of `LINEAR_ACCESS_TOKEN` (required with OAuth install)',
  },
  {
    name: 'LINEAR_API_URL',
    meaning: "Linear's GraphQL endpoint (https; plain http only on localhost, for a fake)",
    default: 'https://api.linear.app/graphql',
  },
  {
    name: 'LINEAR_ALLOWED_TEAMS',
    meaning:
      "Linear team keys or ids whose issues may start runs; `<organization>/<key>` names one workspace's team",
    default: 'unset: every team',
  },
  {
    name: 'JIRA_BASE_URL',
    meaning:
      'the Jira site, e.g. `https://acme.atlassian.net` (https; plain http only on localhost, for a fake)',
    default: 'unset: Jira off',
  },
  {
    name: 'JIRA_EMAIL',
    meaning: "the email of the relay's Jira account (basic auth with `JIRA_API_TOKEN`)",
    default: 'required with `JIRA_BASE_URL`',
  },
  {
    name: 'JIRA_API_TOKEN',
    meaning: "the API token of the relay's Jira account",
    default: 'required with `JIRA_BASE_URL`',
    secret: true,
  },
  {
    name: 'JIRA_WEBHOOK_SECRET',
    meaning: "enables Jira's webhook (`POST /jira/webhooks`): the secret it signs with",
    default: 'required with `JIRA_BASE_URL`',
    secret: true,
  },
  {
    name: 'JIRA_ALLOWED_PROJECTS',
    meaning: 'Jira project keys (`PROJ`) whose issues may start runs (on every site)',
    default: 'required with `JIRA_BASE_URL` or `JIRA_CLIENT_ID`',
  },
  {
    name: 'JIRA_BOT_HANDLE',
    meaning:
      'the @-mention in a Jira comment that addresses the relay, and the one every notice tells people to write',
    default: 'agent-relay',
  },
  {
    name: 'JIRA_TRIGGER_LABEL',
    meaning: 'the Jira label that starts a run',
    default: 'agent',
  },
  {
    name: 'JIRA_ACCOUNT_ID',
    meaning:
      "the relay's Atlassian account id: assigning an issue to it, or mentioning it, starts a run",
    default: 'asked of Jira at start (`GET /rest/api/3/myself`)',
  },
  {
    name: 'JIRA_START_TRANSITION',
    meaning:
      'the transition (its name or its target status, e.g. `In Progress`) an issue takes when a run starts',
    default: 'unset: the status stays',
  },
  {
    name: 'JIRA_CLOUD_ID',
    meaning:
      "the site's cloud id: calls go through Atlassian's gateway (`JIRA_API_URL`/ex/jira/{cloudId}), as a service account's scoped API token needs",
    default: 'unset: calls go to `JIRA_BASE_URL`',
  },
  {
    name: 'JIRA_CLIENT_ID',
    meaning:
      "OAuth 2.0 (3LO) install on many Jira Cloud sites (`GET /jira/install`): the app's client id from the Atlassian developer console",
    default: 'unset: one site (`JIRA_BASE_URL`)',
  },
  {
    name: 'JIRA_CLIENT_SECRET',
    meaning:
      "the OAuth app's secret: exchanges codes, refreshes tokens, and checks the webhooks Jira signs for the app (a JWT)",
    default: 'required with `JIRA_CLIENT_ID`',
    secret: true,
  },
  {
    name: 'JIRA_TOKEN_ENCRYPTION_KEY',
    meaning:
      "32 random bytes, base64, that seal each site's tokens at rest (`openssl rand -base64 32`)",
    default: 'required with `JIRA_CLIENT_ID`',
    secret: true,
  },
  {
    name: 'JIRA_ALLOWED_SITES',
    meaning:
      'Jira site host names (`acme.atlassian.net`) that may install the OAuth app; an install from another site is refused and its token dropped',
    default: 'required with `JIRA_CLIENT_ID`',
  },
  {
    name: 'JIRA_AUTH_URL',
    meaning: "Atlassian's authorization server (the consent page and `/oauth/token`)",
    default: 'https://auth.atlassian.com',
  },
  {
    name: 'JIRA_API_URL',
    meaning:
      "Atlassian's API gateway: `/oauth/token/accessible-resources` and each site's REST API under `/ex/jira/{cloudId}` (OAuth, or `JIRA_CLOUD_ID`)",
    default: 'https://api.atlassian.com',
  },
  {
    name: 'TEAMS_APP_ID',
    meaning: "the Teams bot's Microsoft App ID (a GUID): turns Teams on (`POST /teams/messages`)",
    default: 'unset: Teams off',
  },
  {
    name: 'TEAMS_APP_PASSWORD',
    meaning: "the bot app's client secret (the relay's token for the Bot Connector)",
    default: 'required with `TEAMS_APP_ID`',
    secret: true,
  },
  {
    name: 'TEAMS_TENANT_ID',
    meaning: "the Entra tenant the bot's app is registered in (single-tenant)",
    default: 'required with `TEAMS_APP_ID`',
  },
  {
    name: 'TEAMS_ALLOWED_TENANTS',
    meaning: 'Entra tenant ids whose conversations may use the bot; any other is refused with 401',
    default: 'required with `TEAMS_APP_ID`',
  },
  {
    name: 'TEAMS_ALLOWED_USERS',
    meaning: 'Entra object ids of the people who may use the bot',
    default: 'unset: anyone in an allowed tenant',
  },
  {
    name: 'TEAMS_ALLOWED_CHANNELS',
    meaning: 'Teams conversation ids (`19:…@thread.tacv2`, chats too) where the bot acts',
    default: 'unset: any',
  },
  {
    name: 'TEAMS_ADMIN_USERS',
    meaning:
      "Entra object ids of agent-relay's Teams admins: they stop or cancel anyone's run and change a place's defaults",
    default: 'unset: none',
  },
  {
    name: 'TEAMS_ALLOW_GUESTS',
    meaning: 'guests and people of other tenants may use the bot too (`1`/`0`)',
    default: '0',
  },
  {
    name: 'TEAMS_BOT_HANDLE',
    meaning: "the bot's name as a Teams mention shows it",
    default: 'agent-relay',
  },
  {
    name: 'TEAMS_CLOUD',
    meaning:
      "the Microsoft cloud whose endpoints the bot uses: `Public`, `USGov`, `USGovDoD` or `China` (the Teams SDK's names)",
    default: 'Public',
  },
  {
    name: 'LOG_LEVEL',
    meaning: '`trace`, `debug`, `info`, `warn`, `error`, `fatal` or `silent`',
    default: 'info',
  },
  { name: 'LOG_PRETTY', meaning: 'human-readable logs (`1`/`0`)', default: 'pretty on a TTY' },
  {
    name: 'SHUTDOWN_TIMEOUT_MS',
    meaning: 'how long SIGTERM waits for in-flight work before closing',
    default: '10000',
  },
  {
    name: 'LEASE_MS',
    meaning: 'how long a claim on an inbox item or notification lasts (min 1000)',
    default: '120000',
  },
  {
    name: 'PROGRESS_READS_PER_MINUTE',
    meaning:
      "reads of running runs' progress (the agent's steps, set-up events) per minute for all " +
      'runs together, each run at most every 15 s; `0`: status messages show the state only',
    default: '60',
  },
  {
    name: 'INGRESS_BURST_PER_SECOND',
    meaning:
      'Slack/GitHub requests per second above which the workers claim nothing new until the ' +
      'burst ends (for at most 30 s), so the acknowledgements keep the CPU; `0`: they never wait',
    default: '40',
  },
  {
    name: 'RETENTION_DAYS',
    meaning:
      'days finished triggers and delivered notifications are kept before they are deleted; ' +
      '`0`: kept for ever',
    default: '7',
  },
  {
    name: 'RUN_RETENTION_DAYS',
    meaning:
      'days a finished run (no longer tracked) and a thread with no run left are kept after ' +
      'their last change before they are deleted; a reply in an older thread starts afresh; ' +
      '`0`: kept for ever',
    default: '90',
  },
  {
    name: 'EMULATOR_FAST',
    meaning:
      'the embedded emulator takes the short timings of `emulator --fast`: a run ends in about ' +
      '0.25 s instead of about 5 s',
    default: '0',
  },
  {
    name: 'METRICS_TOKEN',
    meaning:
      '`/metrics` answers only requests carrying `Authorization: Bearer <this>` (16+ characters)',
    default: 'unset: `/metrics` open',
    secret: true,
  },
  ...CONSOLE_VARIABLES,
];

export const SECRET_VARIABLES: ReadonlySet<string> = new Set(
  CONFIG_VARIABLES.filter((v) => v.secret).map((v) => v.name),
);
