/**
 * `Config`'s field types come from the variables' schemas: a field written `Value<'NAME'>` in
 * src/config/types.ts holds variable NAME's value. This reads those annotations with the
 * TypeScript compiler and checks each against a loaded configuration, so an annotation that
 * names the wrong variable, or a field the loader fills from another one, fails here.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, EnvSchema, loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/load.js';

const TYPES = new URL('../../src/config/types.ts', import.meta.url);

interface Annotation {
  /** The interface or type alias that declares the field. */
  owner: string;
  /** The field's path inside it (more than one step for an inline object type). */
  path: string[];
  variable: string;
}

/** Every `field: Value<'NAME'>` in types.ts, with where it stands. */
function annotations(): Annotation[] {
  const file = ts.createSourceFile('types.ts', readFileSync(TYPES, 'utf8'), ts.ScriptTarget.Latest);
  const found: Annotation[] = [];
  const visitType = (owner: string, path: string[], node: ts.Node): void => {
    if (ts.isTypeReferenceNode(node) && node.typeName.getText(file) === 'Value') {
      const arg = node.typeArguments?.[0];
      if (arg && ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal))
        found.push({ owner, path, variable: arg.literal.text });
      return;
    }
    if (ts.isTypeLiteralNode(node) || ts.isInterfaceDeclaration(node)) {
      for (const member of node.members)
        if (ts.isPropertySignature(member) && member.type)
          visitType(owner, [...path, member.name.getText(file)], member.type);
      return;
    }
    node.forEachChild((child) => visitType(owner, path, child));
  };
  for (const statement of file.statements) {
    if (ts.isInterfaceDeclaration(statement)) visitType(statement.name.text, [], statement);
    else if (ts.isTypeAliasDeclaration(statement))
      visitType(statement.name.text, [], statement.type);
  }
  return found.filter((a) => a.path.length > 0);
}

/** Where each declaration of types.ts stands in a loaded `Config`. */
const PLACES: Record<string, (c: Config) => unknown> = {
  Config: (c) => c,
  SlackConfig: (c) => c.slack,
  SlackOAuthConfig: (c) => c.slack?.oauth,
  GitHubConfig: (c) => c.github,
  GitHubAuth: (c) => c.github?.auth,
  LinearConfig: (c) => c.linear,
  LinearOAuthConfig: (c) => c.linear?.oauth,
  JiraCommonConfig: (c) => c.jira,
  JiraTokenConfig: (c) => c.jira,
  JiraOAuthConfig: (c) => c.jira?.oauth,
  TeamsConfig: (c) => c.teams,
  TeamsCredential: (c) => c.teams?.credential,
  ConsoleConfig: (c) => c.console,
};

/** Variables read into fields the loader computes from them (no one variable's value as such). */
const COMPUTED = [
  'GITHUB_PRIVATE_KEY', // auth.privateKey, its `\n`s turned into line breaks
  'GITHUB_PRIVATE_KEY_PATH', // auth.privateKey, the file's text
  'JIRA_CLOUD_ID', // jira.restUrl
  'CONSOLE_ENABLED', // whether console is set
  'CONSOLE_ADMIN_LINK', // console.adminLink, which also follows the sign-in ways
];

const key = (n: number) => Buffer.alloc(32, n).toString('base64');
const guid = (n: number) => `0000000${n}-0000-4000-8000-00000000000${n}`;

/** Between them every variable, each with a value of its own, not its default. */
const DEPLOYMENTS: Record<string, string>[] = [
  {
    PORT: '4321',
    HOST: '127.0.0.2',
    DATABASE_URL: 'postgres://relay@db/relay',
    AGENT_API_URL: 'https://agents.example.com/api/v1',
    AGENT_API_KEY: 'agent-key-01',
    POLL_INTERVAL_MS: '2345',
    TRACKER_MODE: 'per-run',
    MAX_PROMPT_CHARS: '12345',
    SLACK_SIGNING_SECRET: 'slack-signing-02',
    SLACK_API_URL: 'http://127.0.0.1:9/api/',
    SLACK_COMMAND: '/relay-test',
    SLACK_ALLOWED_CHANNELS: 'C01,C02',
    SLACK_ALLOWED_USERS: 'U01',
    SLACK_REPLY_WITHOUT_MENTION: '0',
    SLACK_ALLOWED_TEAMS: 'T01',
    SLACK_ADMIN_USERS: 'U02',
    SLACK_ALLOW_EXTERNAL_USERS: '1',
    SLACK_ALLOW_GUESTS: '1',
    SLACK_CLIENT_ID: '1.2',
    SLACK_CLIENT_SECRET: 'slack-client-secret-03',
    SLACK_STATE_SECRET: 'slack-state-secret-04',
    SLACK_TOKEN_ENCRYPTION_KEY: key(1),
    GITHUB_WEBHOOK_SECRET: 'github-webhook-05',
    GITHUB_WEBHOOK_SECRET_PREVIOUS: 'github-webhook-06',
    GITHUB_APP_ID: '7',
    GITHUB_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nkey-07\n-----END PRIVATE KEY-----',
    GITHUB_API_URL: 'https://ghe.example.com/api/v3',
    GITHUB_BOT_HANDLE: 'relay-bot',
    GITHUB_TRIGGER_LABEL: 'relay-label',
    GITHUB_ALLOWED_ASSOCIATIONS: 'OWNER',
    GITHUB_MIN_PERMISSION: 'admin',
    LINEAR_WEBHOOK_SECRET: 'linear-webhook-08',
    LINEAR_ACCESS_TOKEN: 'lin_oauth_09',
    LINEAR_CLIENT_ID: 'linear-client',
    LINEAR_CLIENT_SECRET: 'linear-client-secret-10',
    LINEAR_TOKEN_ENCRYPTION_KEY: key(2),
    LINEAR_ALLOWED_ORGANIZATIONS: 'acme',
    LINEAR_API_URL: 'https://linear.example.com/graphql',
    LINEAR_ALLOWED_TEAMS: 'ENG',
    JIRA_BASE_URL: 'https://acme.atlassian.net',
    JIRA_EMAIL: 'relay@acme.example',
    JIRA_API_TOKEN: 'jira-api-token-11',
    JIRA_WEBHOOK_SECRET: 'jira-webhook-secret-12',
    JIRA_ALLOWED_PROJECTS: 'PROJ',
    JIRA_BOT_HANDLE: 'relay-jira',
    JIRA_TRIGGER_LABEL: 'relay-jira-label',
    JIRA_ACCOUNT_ID: '5b10ac8d82e05b22cc7d4ef5',
    JIRA_START_TRANSITION: 'In Progress',
    JIRA_CLOUD_ID: 'cloud-13',
    JIRA_API_URL: 'https://gateway.example.com',
    TEAMS_APP_ID: guid(1),
    TEAMS_APP_PASSWORD: 'teams-app-password-13',
    TEAMS_TENANT_ID: guid(2),
    TEAMS_ALLOWED_TENANTS: guid(2),
    TEAMS_ALLOWED_USERS: guid(3),
    TEAMS_ALLOWED_CHANNELS: '19:abc@thread.tacv2',
    TEAMS_ADMIN_USERS: guid(4),
    TEAMS_ALLOW_GUESTS: '1',
    TEAMS_BOT_HANDLE: 'relay-teams',
    TEAMS_CLOUD: 'USGov',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: '1',
    SHUTDOWN_TIMEOUT_MS: '4567',
    LEASE_MS: '5678',
    PROGRESS_READS_PER_MINUTE: '17',
    INGRESS_BURST_PER_SECOND: '23',
    RETENTION_DAYS: '3',
    RUN_RETENTION_DAYS: '31',
    METRICS_TOKEN: 'metrics-token-14',
    CONSOLE_ENABLED: '1',
    CONSOLE_PUBLIC_URL: 'https://relay.example.com',
    CONSOLE_SESSION_SECRET: 'console-session-secret-15-0123456789',
    CONSOLE_SESSION_HOURS: '5',
    CONSOLE_ADMIN_LINK: '1',
    CONSOLE_ADMIN_LINK_MINUTES: '9',
    CONSOLE_SLACK_TEAMS: 'T01',
    CONSOLE_SLACK_USERS: 'U03',
    CONSOLE_GITHUB_ORGS: 'acme',
    CONSOLE_GITHUB_USERS: 'octo',
    GITHUB_CLIENT_ID: 'Iv1.x',
    GITHUB_CLIENT_SECRET: 'github-client-secret-16',
    CONSOLE_SLACK_URL: 'https://slack.example.com',
    CONSOLE_GITHUB_URL: 'https://github.example.com',
  },
  {
    EMULATOR_FAST: '1',
    SLACK_BOT_TOKEN: 'xoxb-17',
    SLACK_APP_TOKEN: 'xapp-18',
    SLACK_ALLOW_ANY_WORKSPACE: '1',
    GITHUB_WEBHOOK_SECRET: 'github-webhook-19',
    GITHUB_TOKEN: 'github-token-20',
    JIRA_CLIENT_ID: 'jira-client',
    JIRA_CLIENT_SECRET: 'jira-client-secret-21',
    JIRA_TOKEN_ENCRYPTION_KEY: key(3),
    JIRA_ALLOWED_SITES: 'acme.atlassian.net',
    JIRA_ALLOWED_PROJECTS: 'PROJ',
    JIRA_AUTH_URL: 'https://auth.example.com',
    CONSOLE_PUBLIC_URL: 'https://relay.example.org',
    JIRA_API_URL: 'https://gateway.example.com',
    TEAMS_APP_ID: guid(1),
    TEAMS_MANAGED_IDENTITY_CLIENT_ID: 'system',
    TEAMS_TENANT_ID: guid(2),
    TEAMS_ALLOWED_TENANTS: guid(2),
  },
];

/** A value as the loader may keep it: trimmed, lower-cased, without a trailing slash. */
const normal = (value: unknown): unknown =>
  typeof value === 'string'
    ? value.trim().toLowerCase().replace(/\/+$/, '')
    : Array.isArray(value)
      ? value.map(normal)
      : value;

describe("Config's field types", () => {
  const found = annotations();

  it('name real variables, and every variable lands in a field of its own type or is listed as computed', () => {
    const names = new Set(CONFIG_VARIABLES.map((v) => v.name));
    for (const a of found) expect(names.has(a.variable), a.variable).toBe(true);
    for (const a of found) expect(Object.keys(PLACES), a.owner).toContain(a.owner);
    const annotated = new Set(found.map((a) => a.variable));
    expect(CONFIG_VARIABLES.map((v) => v.name).filter((n) => !annotated.has(n))).toEqual(COMPUTED);
    // Every variable of a field is given a value of its own by one of the deployments below.
    const given = new Set(DEPLOYMENTS.flatMap((d) => Object.keys(d)));
    expect([...annotated].filter((n) => !given.has(n))).toEqual([]);
  });

  it('hold the value of the variable each names, in a loaded configuration', () => {
    const checked = new Set<string>();
    for (const env of DEPLOYMENTS) {
      const config = loadConfig(env);
      const values = EnvSchema.parse(env) as Record<string, unknown>;
      for (const a of found) {
        let at: unknown = PLACES[a.owner]!(config);
        for (const step of a.path)
          at =
            at !== null && typeof at === 'object'
              ? (at as Record<string, unknown>)[step]
              : undefined;
        if (at === undefined || env[a.variable] === undefined) continue;
        expect(normal(at), `${a.owner}.${a.path.join('.')}`).toEqual(normal(values[a.variable]));
        checked.add(`${a.owner}.${a.path.join('.')}`);
      }
    }
    expect([...checked].sort()).toEqual(
      [...new Set(found.map((a) => `${a.owner}.${a.path.join('.')}`))].sort(),
    );
  });
});
