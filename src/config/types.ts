/**
 * The typed configuration `loadConfig` returns: what the rest of the service reads instead of
 * the environment. Types only, so the rules, the redaction and the loader can share them
 * without importing one another. The nesting (which part of the service reads what, and the
 * unions that several variables make together) is written here; the type of every field that
 * holds one variable's value (as read, or only trimmed, lower-cased or without its trailing
 * slash) is that variable's, `Value<'NAME'>`, derived from its schema in variables.ts: a
 * schema that changes changes the field with it (test/config/config-fields.test.ts checks
 * which variable lands in which field).
 */
import type { Env } from './schema.js';

/** The value of variable `N` once read: its schema's output (set, where it is a field's). */
export type Value<N extends keyof Env> = NonNullable<Env[N]>;

export type LogLevel = Value<'LOG_LEVEL'>;

/** OAuth install in any number of workspaces (the installations live in the database). */
export interface SlackOAuthConfig {
  clientId: Value<'SLACK_CLIENT_ID'>;
  clientSecret: Value<'SLACK_CLIENT_SECRET'>;
  stateSecret: Value<'SLACK_STATE_SECRET'>;
  /** 32 bytes (AES-256-GCM) that seal each installation's tokens at rest. */
  encryptionKey: Value<'SLACK_TOKEN_ENCRYPTION_KEY'>;
}

export interface SlackConfig {
  signingSecret?: Value<'SLACK_SIGNING_SECRET'>;
  /** Single-workspace mode; with OAuth, the token of workspaces that have no installation. */
  botToken?: Value<'SLACK_BOT_TOKEN'>;
  /** Set: `/slack/install` and `/slack/oauth_redirect`, one installation per workspace. */
  oauth?: SlackOAuthConfig;
  /** Set: Socket Mode instead of HTTP. */
  appToken?: Value<'SLACK_APP_TOKEN'>;
  /** Web API base, ending in `/` (Bolt's `slackApiUrl`); undefined: Slack's. */
  apiUrl?: Value<'SLACK_API_URL'>;
  command: Value<'SLACK_COMMAND'>;
  allowedChannels: Value<'SLACK_ALLOWED_CHANNELS'>;
  allowedUsers: Value<'SLACK_ALLOWED_USERS'>;
  /** A plain reply in a thread that has a run is a follow-up. */
  replyWithoutMention: Value<'SLACK_REPLY_WITHOUT_MENTION'>;
  /** Team ids (T…) and Grid organisation ids (E…) that may install and use the app. */
  allowedTeams: Value<'SLACK_ALLOWED_TEAMS'>;
  /** OAuth install: any workspace may install (the operator said so explicitly). */
  allowAnyWorkspace: Value<'SLACK_ALLOW_ANY_WORKSPACE'>;
  /** Admins of agent-relay; empty: the workspace's own admins and owners (users.info). */
  adminUsers: Value<'SLACK_ADMIN_USERS'>;
  /** Slack Connect: people of another organisation may use the bot. */
  allowExternalUsers: Value<'SLACK_ALLOW_EXTERNAL_USERS'>;
  /** Workspace guests (restricted, ultra-restricted) may use the bot. */
  allowGuests: Value<'SLACK_ALLOW_GUESTS'>;
}

export type GitHubAuth =
  | { kind: 'app'; appId: Value<'GITHUB_APP_ID'>; privateKey: string }
  | { kind: 'token'; token: Value<'GITHUB_TOKEN'> };

export interface GitHubConfig {
  webhookSecret: Value<'GITHUB_WEBHOOK_SECRET'>;
  previousWebhookSecret?: Value<'GITHUB_WEBHOOK_SECRET_PREVIOUS'>;
  auth: GitHubAuth;
  apiUrl: Value<'GITHUB_API_URL'>;
  botHandle: Value<'GITHUB_BOT_HANDLE'>;
  triggerLabel: Value<'GITHUB_TRIGGER_LABEL'>;
  allowedAssociations: Value<'GITHUB_ALLOWED_ASSOCIATIONS'>;
  /** GITHUB_MIN_PERMISSION: the least repository access checked with GitHub's API. */
  minPermission: Value<'GITHUB_MIN_PERMISSION'>;
}

/** Linear OAuth install (`actor=app`) in any number of workspaces. */
export interface LinearOAuthConfig {
  clientId: Value<'LINEAR_CLIENT_ID'>;
  clientSecret: Value<'LINEAR_CLIENT_SECRET'>;
  /** 32 bytes (AES-256-GCM) that seal each installation's token at rest. */
  encryptionKey: Value<'LINEAR_TOKEN_ENCRYPTION_KEY'>;
  /** Organization ids or URL keys that may install. */
  allowedOrganizations: Value<'LINEAR_ALLOWED_ORGANIZATIONS'>;
  /**
   * Where Linear sends the browser back (`CONSOLE_PUBLIC_URL` + `/linear/oauth_redirect`);
   * unset: only an install reached on loopback (development) can finish.
   */
  redirectUri?: string;
}

/** Linear's agent platform: its webhook's secret, the app token(s), the API. */
export interface LinearConfig {
  webhookSecret: Value<'LINEAR_WEBHOOK_SECRET'>;
  /** The app-actor token (`actor=app`) of the one workspace; with OAuth, of workspaces that have no installation. */
  token?: Value<'LINEAR_ACCESS_TOKEN'>;
  /** Set: `/linear/install` and `/linear/oauth_redirect`, one installation per workspace. */
  oauth?: LinearOAuthConfig;
  /** GraphQL endpoint. */
  apiUrl: Value<'LINEAR_API_URL'>;
  /** Team keys or ids (or `org/KEY`) whose issues may start runs; empty: every team. */
  allowedTeams: Value<'LINEAR_ALLOWED_TEAMS'>;
  /**
   * LINEAR_ALLOWED_ORGANIZATIONS: the workspaces (ids or URL keys) whose webhooks are taken,
   * checked on every event; empty (one workspace only): the configured token's own workspace.
   */
  allowedOrganizations: Value<'LINEAR_ALLOWED_ORGANIZATIONS'>;
}

/** What both ways of connecting Jira share. */
export interface JiraCommonConfig {
  /** Project keys whose issues may start runs (upper case). */
  allowedProjects: Value<'JIRA_ALLOWED_PROJECTS'>;
  botHandle: Value<'JIRA_BOT_HANDLE'>;
  triggerLabel: Value<'JIRA_TRIGGER_LABEL'>;
  /** A transition's name or target status to take when a run starts. */
  startTransition?: Value<'JIRA_START_TRANSITION'>;
}

/** Jira (one site): REST v3 with basic auth, and its admin webhook. */
export interface JiraTokenConfig extends JiraCommonConfig {
  /** The site's root, without a trailing slash (`https://acme.atlassian.net`). */
  baseUrl: Value<'JIRA_BASE_URL'>;
  /** The site's host name, the `{site}` of its thread keys. */
  site: string;
  /**
   * Where REST calls go when not to `baseUrl`: the gateway root of the site
   * (`https://api.atlassian.com/ex/jira/{cloudId}`), which scoped API tokens need.
   */
  restUrl?: string;
  email: Value<'JIRA_EMAIL'>;
  apiToken: Value<'JIRA_API_TOKEN'>;
  webhookSecret: Value<'JIRA_WEBHOOK_SECRET'>;
  /** The relay's account; undefined: asked of Jira at start. */
  accountId?: Value<'JIRA_ACCOUNT_ID'>;
  oauth?: undefined;
}

/** Jira Cloud through an OAuth 2.0 (3LO) app, installed on any number of allowed sites. */
export interface JiraOAuthConfig {
  clientId: Value<'JIRA_CLIENT_ID'>;
  clientSecret: Value<'JIRA_CLIENT_SECRET'>;
  /** 32 bytes (AES-256-GCM) that seal each site's tokens at rest. */
  encryptionKey: Value<'JIRA_TOKEN_ENCRYPTION_KEY'>;
  /** Site host names that may install (lower case). */
  allowedSites: Value<'JIRA_ALLOWED_SITES'>;
  /** Atlassian's authorization server (`https://auth.atlassian.com`). */
  authUrl: Value<'JIRA_AUTH_URL'>;
  /** Atlassian's API gateway (`https://api.atlassian.com`). */
  apiUrl: Value<'JIRA_API_URL'>;
  /**
   * The relay's public root (CONSOLE_PUBLIC_URL): the redirect URI and the webhooks' URL;
   * unset: only an install reached on loopback (development) can finish.
   */
  publicUrl?: Value<'CONSOLE_PUBLIC_URL'>;
}

/** Jira: one site with the relay's API token, or an OAuth app on many sites. */
export type JiraConfig = JiraTokenConfig | (JiraCommonConfig & { oauth: JiraOAuthConfig });

/** The sovereign clouds the Teams SDK names. */
export type TeamsCloud = Value<'TEAMS_CLOUD'>;

/**
 * Where the Teams bot's Bot Connector token comes from: the app's client secret (client
 * credentials), or an Azure managed identity through the Teams SDK (`clientId`: a
 * user-assigned identity's client id, or `system`).
 */
export type TeamsCredential =
  | { kind: 'secret'; appPassword: Value<'TEAMS_APP_PASSWORD'> }
  | { kind: 'managed-identity'; clientId: Value<'TEAMS_MANAGED_IDENTITY_CLIENT_ID'> };

/** Microsoft Teams: one single-tenant bot registration (Azure Bot or Teams developer portal). */
export interface TeamsConfig {
  /** The bot's Microsoft App ID: the audience of the Bot Connector's tokens. */
  appId: Value<'TEAMS_APP_ID'>;
  /** How the relay gets its Bot Connector token. */
  credential: TeamsCredential;
  /** The Entra tenant the app is registered in (where its token is asked). */
  tenantId: Value<'TEAMS_TENANT_ID'>;
  /** Tenants whose conversations may start runs (lower case). */
  allowedTenants: Value<'TEAMS_ALLOWED_TENANTS'>;
  /** Entra object ids of the people who may; empty: anyone in an allowed tenant. */
  allowedUsers: Value<'TEAMS_ALLOWED_USERS'>;
  /** Conversation ids (channels, chats) that may; empty: any. */
  allowedChannels: Value<'TEAMS_ALLOWED_CHANNELS'>;
  /** Entra object ids of agent-relay's Teams admins (cancel anyone's run, change defaults). */
  adminUsers: Value<'TEAMS_ADMIN_USERS'>;
  /** Guests and people of other tenants may use it too. */
  allowGuests: Value<'TEAMS_ALLOW_GUESTS'>;
  /** The bot's name as a mention shows it (`@agent-relay`). */
  botHandle: Value<'TEAMS_BOT_HANDLE'>;
  cloud: Value<'TEAMS_CLOUD'>;
}

/** The operator console (`/console`); see console-variables.ts. */
export interface ConsoleConfig {
  /** The address browsers use (redirect URIs, Secure cookies); default the listening URL. */
  publicUrl?: Value<'CONSOLE_PUBLIC_URL'>;
  /** `secret` unset: a random key per process. */
  session: { secret?: Value<'CONSOLE_SESSION_SECRET'>; hours: Value<'CONSOLE_SESSION_HOURS'> };
  /** A one-time sign-in link printed at start-up, accepted from loopback only. */
  adminLink: boolean;
  /** How long the admin link stays good after start-up (CONSOLE_ADMIN_LINK_MINUTES). */
  adminLinkMinutes: Value<'CONSOLE_ADMIN_LINK_MINUTES'>;
  slack?: {
    clientId: Value<'SLACK_CLIENT_ID'>;
    secret: Value<'SLACK_CLIENT_SECRET'>;
    baseUrl: Value<'CONSOLE_SLACK_URL'>;
    teams: Value<'CONSOLE_SLACK_TEAMS'>;
    users: Value<'CONSOLE_SLACK_USERS'>;
  };
  github?: {
    clientId: Value<'GITHUB_CLIENT_ID'>;
    secret: Value<'GITHUB_CLIENT_SECRET'>;
    webUrl: Value<'CONSOLE_GITHUB_URL'>;
    apiUrl: Value<'GITHUB_API_URL'>;
    orgs: Value<'CONSOLE_GITHUB_ORGS'>;
    users: Value<'CONSOLE_GITHUB_USERS'>;
  };
}

export interface Config {
  port: Value<'PORT'>;
  host: Value<'HOST'>;
  databaseUrl: Value<'DATABASE_URL'>;
  agent:
    | { kind: 'emulator'; fast: Value<'EMULATOR_FAST'> }
    | { kind: 'remote'; url: Value<'AGENT_API_URL'>; apiKey: Value<'AGENT_API_KEY'> };
  pollIntervalMs: Value<'POLL_INTERVAL_MS'>;
  trackerMode: Value<'TRACKER_MODE'>;
  maxPromptChars: Value<'MAX_PROMPT_CHARS'>;
  shutdownTimeoutMs: Value<'SHUTDOWN_TIMEOUT_MS'>;
  /** Inbox/outbox claim lease (LEASE_MS). */
  leaseMs: Value<'LEASE_MS'>;
  /**
   * Slack/GitHub requests a second that make a burst, during which the workers claim nothing
   * new (for at most 30 s); 0: they never wait (INGRESS_BURST_PER_SECOND).
   */
  ingressBurstPerSecond: Value<'INGRESS_BURST_PER_SECOND'>;
  /** Progress reads a minute for all running runs together; 0: off (PROGRESS_READS_PER_MINUTE). */
  progressReadsPerMinute: Value<'PROGRESS_READS_PER_MINUTE'>;
  /** Days finished inbox/outbox rows are kept; 0: for ever (RETENTION_DAYS). */
  retentionDays: Value<'RETENTION_DAYS'>;
  /** Set: `/metrics` needs `Authorization: Bearer <metricsToken>` (METRICS_TOKEN). */
  metricsToken?: Value<'METRICS_TOKEN'>;
  /** Days finished runs and their emptied threads are kept; 0: for ever (RUN_RETENTION_DAYS). */
  runRetentionDays: Value<'RUN_RETENTION_DAYS'>;
  /** Undefined: Slack is off. */
  slack?: SlackConfig;
  /** Undefined: GitHub is off. */
  github?: GitHubConfig;
  /** Undefined: Linear is off. */
  linear?: LinearConfig;
  /** Undefined: Jira is off. */
  jira?: JiraConfig;
  /** Undefined: Teams is off. */
  teams?: TeamsConfig;
  /** Undefined: the console is off. */
  console?: ConsoleConfig;
  log: { level: Value<'LOG_LEVEL'>; pretty: Value<'LOG_PRETTY'> };
  /** Things worth saying at start-up that are not errors (e.g. a credential that does nothing). */
  notes: string[];
}
