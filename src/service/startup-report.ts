/**
 * The start-up block: where the database is, which Agent Run Service is used, whether Slack,
 * GitHub and Linear are on (and which variables would turn them on), and the listening URL. Plain
 * lines for a person, the same facts as fields for a log search. No secret appears.
 */
import type { Config } from '../config/load.js';
import { maskUrlPassword } from '../config/redact.js';
import { describeCredential } from '../teams/platform.js';
import { DEFAULT_DATABASE_PATH, parseDatabaseUrl } from '../store/database-url.js';

export interface StartupFacts {
  /** A URL that reaches the server from this machine (127.0.0.1 when bound to every interface). */
  url: string;
  /** The address the server is bound to, as configured (HOST), when known. */
  host?: string;
  /** The service base URL actually used (the emulator's when embedded). */
  agentUrl: string;
}

export interface StartupReport {
  lines: string[];
  fields: Record<string, string>;
}

export function describeDatabase(databaseUrl: string): string {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.kind === 'postgres') return `PostgreSQL at ${maskUrlPassword(target.url)}`;
  const isDefault = databaseUrl === DEFAULT_DATABASE_PATH;
  return `SQLite at ${target.path}${isDefault ? ' (default; set DATABASE_URL to change)' : ''}`;
}

export function describeAgent(config: Config, agentUrl: string): string {
  if (config.agent.kind === 'remote') return `Agent Run Service at ${agentUrl}`;
  return (
    `embedded emulator at ${agentUrl}${config.agent.fast ? ' (fast timings)' : ''} ` +
    '(AGENT_API_URL is unset; set AGENT_API_URL and AGENT_API_KEY to use the real service)'
  );
}

export function describeSlack(config: Config, url: string): string {
  const slack = config.slack;
  if (!slack)
    return (
      'off (set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN to receive POST /slack/events, ' +
      'or SLACK_APP_TOKEN and SLACK_BOT_TOKEN for Socket Mode)'
    );
  const mode = slack.appToken
    ? 'Socket Mode'
    : `HTTP mode at POST ${url}/slack/events` +
      (slack.oauth ? `, OAuth install at GET ${url}/slack/install` : '');
  const channels = slack.allowedChannels.length
    ? `channels ${slack.allowedChannels.join(',')}`
    : 'every channel';
  const users = slack.allowedUsers.length ? `users ${slack.allowedUsers.join(',')}` : 'everyone';
  return `on (${mode}, command ${slack.command}, ${channels}, ${users})`;
}

export function describeGitHub(config: Config, url: string): string {
  const github = config.github;
  if (!github)
    return (
      'off (set GITHUB_WEBHOOK_SECRET with GITHUB_TOKEN, or with GITHUB_APP_ID and ' +
      'GITHUB_PRIVATE_KEY / GITHUB_PRIVATE_KEY_PATH, to receive POST /github/webhooks)'
    );
  const auth = github.auth.kind === 'app' ? `App ${github.auth.appId}` : 'token auth';
  return (
    `on (POST ${url}/github/webhooks, ${auth}, API ${github.apiUrl}, ` +
    `@${github.botHandle}, label "${github.triggerLabel}", ` +
    `allowed: ${github.allowedAssociations.join(',')} with ${github.minPermission} access)`
  );
}

/** Linear: where its webhook is and whose tokens answer, or what would turn it on. */
export function describeLinear(config: Config, url: string): string {
  const linear = config.linear;
  if (!linear)
    return (
      'off (set LINEAR_WEBHOOK_SECRET with LINEAR_ACCESS_TOKEN, or with LINEAR_CLIENT_ID, ' +
      'LINEAR_CLIENT_SECRET and LINEAR_TOKEN_ENCRYPTION_KEY, to receive POST /linear/webhooks)'
    );
  const tokens = linear.oauth
    ? `OAuth install at ${url}/linear/install for ${linear.oauth.allowedOrganizations.join(',')}`
    : 'one workspace';
  const teams = linear.allowedTeams.length
    ? `teams ${linear.allowedTeams.join(',')}`
    : 'every team';
  return `on (POST ${url}/linear/webhooks, ${tokens}, API ${linear.apiUrl}, ${teams})`;
}

/** Jira: its site, webhook and projects, or what would turn it on. */
export function describeJira(config: Config, url: string): string {
  const jira = config.jira;
  if (!jira)
    return (
      'off (set JIRA_BASE_URL with JIRA_EMAIL, JIRA_API_TOKEN, JIRA_WEBHOOK_SECRET and ' +
      'JIRA_ALLOWED_PROJECTS to receive POST /jira/webhooks)'
    );
  const sites = jira.oauth
    ? `OAuth install at ${url}/jira/install for ${jira.oauth.allowedSites.join(',')}`
    : `site ${jira.baseUrl}`;
  return (
    `on (POST ${url}/jira/webhooks, ${sites}, projects ${jira.allowedProjects.join(',')}, ` +
    `@${jira.botHandle}, label "${jira.triggerLabel}")`
  );
}

/** Teams: its messaging endpoint, app, tenants and who may, or what would turn it on. */
export function describeTeams(config: Config, url: string): string {
  const teams = config.teams;
  if (!teams)
    return (
      'off (set TEAMS_APP_ID with TEAMS_APP_PASSWORD or TEAMS_MANAGED_IDENTITY_CLIENT_ID, TEAMS_TENANT_ID and ' +
      'TEAMS_ALLOWED_TENANTS to receive POST /teams/messages)'
    );
  const people = teams.allowedUsers.length > 0 ? `${teams.allowedUsers.length} people` : 'anyone';
  const places =
    teams.allowedChannels.length > 0 ? `${teams.allowedChannels.length} conversations` : 'anywhere';
  return (
    `on (POST ${url}/teams/messages, app ${teams.appId}, token from ${describeCredential(teams)}, ` +
    `tenants ${teams.allowedTenants.join(',')}, ` +
    `${people} ${places}${teams.allowGuests ? ', guests too' : ''}, cloud ${teams.cloud})`
  );
}

const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '']);

/** Why the HTTP server could not listen, and what to do about it. */
export function listenFailure(host: string, port: number, err: unknown): string {
  const code = (err as { code?: unknown }).code;
  const where = `cannot listen on ${host}:${port}`;
  if (code === 'EADDRINUSE')
    return `${where}: the port is in use (EADDRINUSE); stop what holds it, or set PORT to another port (PORT=0 takes any free one)`;
  if (code === 'EACCES')
    return `${where}: not allowed (EACCES); ports below 1024 need privileges, so set PORT to 1024 or above`;
  if (code === 'EADDRNOTAVAIL')
    return `${where}: no interface of this machine has that address (EADDRNOTAVAIL); check HOST`;
  return `${where} (${String(code ?? err)})`;
}

/** The first line: the address actually listened on, and a URL usable from this machine. */
export function listeningLine(facts: StartupFacts): string {
  if (facts.host === undefined || !EVERY_INTERFACE.has(facts.host)) {
    return `agent-relay is listening on ${facts.url}`;
  }
  const port = new URL(facts.url).port;
  const bound = facts.host === '::' ? `[::]:${port}` : `0.0.0.0:${port}`;
  return `agent-relay is listening on ${bound} (every interface); on this machine: ${facts.url}`;
}

export function describeStartup(config: Config, facts: StartupFacts): StartupReport {
  const database = describeDatabase(config.databaseUrl);
  const tracker = `every ${config.pollIntervalMs} ms (${config.trackerMode})`;
  const lines = [
    listeningLine(facts),
    `  database:      ${database}`,
    `  agent service: ${describeAgent(config, facts.agentUrl)}`,
    `  slack:         ${describeSlack(config, facts.url)}`,
    `  github:        ${describeGitHub(config, facts.url)}`,
    `  linear:        ${describeLinear(config, facts.url)}`,
    `  jira:          ${describeJira(config, facts.url)}`,
    `  teams:         ${describeTeams(config, facts.url)}`,
    `  tracker:       ${tracker}`,
    `  health:        ${facts.url}/healthz  ${facts.url}/readyz  ${facts.url}/metrics`,
    ...config.notes.map((note) => `  note:          ${note}`),
  ];
  // Short facts for log search; the lines say the rest.
  const fields = {
    url: facts.url,
    ...(facts.host === undefined ? {} : { host: facts.host }),
    agentService: config.agent.kind === 'remote' ? facts.agentUrl : 'embedded emulator',
    slack: config.slack ? (config.slack.appToken ? 'socket mode' : 'http') : 'off',
    github: config.github ? config.github.auth.kind : 'off',
    linear: config.linear ? (config.linear.oauth ? 'oauth' : 'token') : 'off',
    jira: config.jira ? (config.jira.oauth ? 'oauth' : 'token') : 'off',
    teams: config.teams ? 'bot' : 'off',
  };
  return { lines, fields };
}
