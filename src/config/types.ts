/**
 * The typed configuration `loadConfig` returns: what the rest of the service reads instead of
 * the environment. Types only, so the rules, the redaction and the loader can share them
 * without importing one another; a field that holds one variable's value as it is read has
 * that variable's type (`Env['NAME']`, from its schema in variables.ts).
 */
import type { Env } from './schema.js';

export type LogLevel = Env['LOG_LEVEL'];

/** OAuth install in any number of workspaces (the installations live in the database). */
export interface SlackOAuthConfig {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  /** 32 bytes (AES-256-GCM) that seal each installation's tokens at rest. */
  encryptionKey: string;
}

export interface SlackConfig {
  signingSecret?: string;
  /** Single-workspace mode; with OAuth, the token of workspaces that have no installation. */
  botToken?: string;
  /** Set: `/slack/install` and `/slack/oauth_redirect`, one installation per workspace. */
  oauth?: SlackOAuthConfig;
  /** Set: Socket Mode instead of HTTP. */
  appToken?: string;
  /** Web API base, ending in `/` (Bolt's `slackApiUrl`); undefined: Slack's. */
  apiUrl?: string;
  command: string;
  allowedChannels: string[];
  allowedUsers: string[];
  /** A plain reply in a thread that has a run is a follow-up. */
  replyWithoutMention: boolean;
  /** Team ids (T…) and Grid organisation ids (E…) that may install and use the app. */
  allowedTeams: string[];
  /** OAuth install: any workspace may install (the operator said so explicitly). */
  allowAnyWorkspace: boolean;
  /** Admins of agent-relay; empty: the workspace's own admins and owners (users.info). */
  adminUsers: string[];
  /** Slack Connect: people of another organisation may use the bot. */
  allowExternalUsers: boolean;
  /** Workspace guests (restricted, ultra-restricted) may use the bot. */
  allowGuests: boolean;
}

export type GitHubAuth =
  { kind: 'app'; appId: number; privateKey: string } | { kind: 'token'; token: string };

export interface GitHubConfig {
  webhookSecret: string;
  previousWebhookSecret?: string;
  auth: GitHubAuth;
  apiUrl: string;
  botHandle: string;
  triggerLabel: string;
  allowedAssociations: string[];
  /** GITHUB_MIN_PERMISSION: the least repository access checked with GitHub's API. */
  minPermission: Env['GITHUB_MIN_PERMISSION'];
}

/** Linear OAuth install (`actor=app`) in any number of workspaces. */
export interface LinearOAuthConfig {
  clientId: string;
  clientSecret: string;
  /** 32 bytes (AES-256-GCM) that seal each installation's token at rest. */
  encryptionKey: string;
  /** Organization ids or URL keys that may install. */
  allowedOrganizations: string[];
  /**
   * Where Linear sends the browser back (`CONSOLE_PUBLIC_URL` + `/linear/oauth_redirect`);
   * unset: only an install reached on loopback (development) can finish.
   */
  redirectUri?: string;
}

/** Linear's agent platform: its webhook's secret, the app token(s), the API. */
export interface LinearConfig {
  webhookSecret: string;
  /** The app-actor token (`actor=app`) of the one workspace; with OAuth, of workspaces that have no installation. */
  token?: string;
  /** Set: `/linear/install` and `/linear/oauth_redirect`, one installation per workspace. */
  oauth?: LinearOAuthConfig;
  /** GraphQL endpoint. */
  apiUrl: string;
  /** Team keys or ids (or `org/KEY`) whose issues may start runs; empty: every team. */
  allowedTeams: string[];
  /**
   * LINEAR_ALLOWED_ORGANIZATIONS: the workspaces (ids or URL keys) whose webhooks are taken,
   * checked on every event; empty (one workspace only): the configured token's own workspace.
   */
  allowedOrganizations: string[];
}

/** What both ways of connecting Jira share. */
export interface JiraCommonConfig {
  /** Project keys whose issues may start runs (upper case). */
  allowedProjects: string[];
  botHandle: string;
  triggerLabel: string;
  /** A transition's name or target status to take when a run starts. */
  startTransition?: string;
}

/** Jira (one site): REST v3 with basic auth, and its admin webhook. */
export interface JiraTokenConfig extends JiraCommonConfig {
  /** The site's root, without a trailing slash (`https://acme.atlassian.net`). */
  baseUrl: string;
  /** The site's host name, the `{site}` of its thread keys. */
  site: string;
  /**
   * Where REST calls go when not to `baseUrl`: the gateway root of the site
   * (`https://api.atlassian.com/ex/jira/{cloudId}`), which scoped API tokens need.
   */
  restUrl?: string;
  email: string;
  apiToken: string;
  webhookSecret: string;
  /** The relay's account; undefined: asked of Jira at start. */
  accountId?: string;
  oauth?: undefined;
}

/** Jira Cloud through an OAuth 2.0 (3LO) app, installed on any number of allowed sites. */
export interface JiraOAuthConfig {
  clientId: string;
  clientSecret: string;
  /** 32 bytes (AES-256-GCM) that seal each site's tokens at rest. */
  encryptionKey: string;
  /** Site host names that may install (lower case). */
  allowedSites: string[];
  /** Atlassian's authorization server (`https://auth.atlassian.com`). */
  authUrl: string;
  /** Atlassian's API gateway (`https://api.atlassian.com`). */
  apiUrl: string;
  /**
   * The relay's public root (CONSOLE_PUBLIC_URL): the redirect URI and the webhooks' URL;
   * unset: only an install reached on loopback (development) can finish.
   */
  publicUrl?: string;
}

/** Jira: one site with the relay's API token, or an OAuth app on many sites. */
export type JiraConfig = JiraTokenConfig | (JiraCommonConfig & { oauth: JiraOAuthConfig });

/** The sovereign clouds the Teams SDK names. */
export type TeamsCloud = Env['TEAMS_CLOUD'];

/**
 * Where the Teams bot's Bot Connector token comes from: the app's client secret (client
 * credentials), or an Azure managed identity through the Teams SDK (`clientId`: a
 * user-assigned identity's client id, or `system`).
 */
export type TeamsCredential =
  { kind: 'secret'; appPassword: string } | { kind: 'managed-identity'; clientId: string };

/** Microsoft Teams: one single-tenant bot registration (Azure Bot or Teams developer portal). */
export interface TeamsConfig {
  /** The bot's Microsoft App ID: the audience of the Bot Connector's tokens. */
  appId: string;
  /** How the relay gets its Bot Connector token. */
  credential: TeamsCredential;
  /** The Entra tenant the app is registered in (where its token is asked). */
  tenantId: string;
  /** Tenants whose conversations may start runs (lower case). */
  allowedTenants: string[];
  /** Entra object ids of the people who may; empty: anyone in an allowed tenant. */
  allowedUsers: string[];
  /** Conversation ids (channels, chats) that may; empty: any. */
  allowedChannels: string[];
  /** Entra object ids of agent-relay's Teams admins (cancel anyone's run, change defaults). */
  adminUsers: string[];
  /** Guests and people of other tenants may use it too. */
  allowGuests: boolean;
  /** The bot's name as a mention shows it (`@agent-relay`). */
  botHandle: string;
  cloud: TeamsCloud;
}

/** The operator console (`/console`); see console-variables.ts. */
export interface ConsoleConfig {
  /** The address browsers use (redirect URIs, Secure cookies); default the listening URL. */
  publicUrl?: string;
  /** `secret` unset: a random key per process. */
  session: { secret?: string; hours: number };
  /** A one-time sign-in link printed at start-up, accepted from loopback only. */
  adminLink: boolean;
  /** How long the admin link stays good after start-up (CONSOLE_ADMIN_LINK_MINUTES). */
  adminLinkMinutes: number;
  slack?: { clientId: string; secret: string; baseUrl: string; teams: string[]; users: string[] };
  github?: {
    clientId: string;
    secret: string;
    webUrl: string;
    apiUrl: string;
    orgs: string[];
    users: string[];
  };
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  agent: { kind: 'emulator'; fast: boolean } | { kind: 'remote'; url: string; apiKey: string };
  pollIntervalMs: number;
  trackerMode: NonNullable<Env['TRACKER_MODE']>;
  maxPromptChars: number;
  shutdownTimeoutMs: number;
  /** Inbox/outbox claim lease (LEASE_MS). */
  leaseMs: number;
  /**
   * Slack/GitHub requests a second that make a burst, during which the workers claim nothing
   * new (for at most 30 s); 0: they never wait (INGRESS_BURST_PER_SECOND).
   */
  ingressBurstPerSecond: number;
  /** Progress reads a minute for all running runs together; 0: off (PROGRESS_READS_PER_MINUTE). */
  progressReadsPerMinute: number;
  /** Days finished inbox/outbox rows are kept; 0: for ever (RETENTION_DAYS). */
  retentionDays: number;
  /** Set: `/metrics` needs `Authorization: Bearer <metricsToken>` (METRICS_TOKEN). */
  metricsToken?: string;
  /** Days finished runs and their emptied threads are kept; 0: for ever (RUN_RETENTION_DAYS). */
  runRetentionDays: number;
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
  log: { level: LogLevel; pretty: boolean };
  /** Things worth saying at start-up that are not errors (e.g. a credential that does nothing). */
  notes: string[];
}
