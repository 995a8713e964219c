import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_VARIABLES,
  EnvSchema,
  loadConfig,
  redactedConfig,
  SECRET_VARIABLES,
} from '../../src/config/load.js';
import { SECRET_FIELDS } from '../../src/config/redact.js';
import { createMetrics } from '../../src/service/metrics.js';

// The operator guide is docs/operating.md.
const guide = readFileSync(new URL('../../docs/operating.md', import.meta.url), 'utf8');
const section = (title: string) => {
  const start = guide.indexOf(`\n## ${title}`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end === -1 ? undefined : end);
};

describe('the operator guide', () => {
  it("has one configuration row per variable, in order, made of its entry's words", () => {
    const rows = section('Configuration').match(/^\| `[A-Z0-9_]+` \|.*$/gm);
    expect(rows).toEqual(
      CONFIG_VARIABLES.map(
        (v) => `| \`${v.name}\` | ${v.meaning}${v.secret ? ' (secret)' : ''} | ${v.default} |`,
      ),
    );
  });

  it("the schema reads exactly the documented variables, each with its own entry's schema", () => {
    expect(Object.keys(EnvSchema.shape).sort()).toEqual(CONFIG_VARIABLES.map((v) => v.name).sort());
    expect(new Set(CONFIG_VARIABLES.map((v) => v.name)).size).toBe(CONFIG_VARIABLES.length);
    const shape = EnvSchema.shape as Record<string, unknown>;
    for (const v of CONFIG_VARIABLES) expect(shape[v.name], v.name).toBe(v.schema);
  });

  it('the redaction list is the entries marked secret', () => {
    expect([...SECRET_VARIABLES].sort()).toEqual(
      CONFIG_VARIABLES.filter((v) => v.secret === true)
        .map((v) => v.name)
        .sort(),
    );
    expect(SECRET_VARIABLES).toContain('SLACK_BOT_TOKEN');
    expect(SECRET_VARIABLES).not.toContain('PORT');
  });

  it('names, for each secret, the config fields its value lands in: only they hold it, and they print as ***', () => {
    const key = (n: number) => Buffer.alloc(32, n).toString('base64');
    const guid = (n: number) => `0000000${n}-0000-4000-8000-000000000000`;
    // Two deployments between them set every secret (some ways exclude each other).
    const deployments: Record<string, string>[] = [
      {
        DATABASE_URL: 'postgres://relay:db-pass-secret@db/relay',
        AGENT_API_URL: 'https://agents.example.com/api/v1',
        AGENT_API_KEY: 'agent-key-secret-01',
        SLACK_SIGNING_SECRET: 'slack-signing-secret-02',
        SLACK_CLIENT_ID: '1.2',
        SLACK_CLIENT_SECRET: 'slack-client-secret-03',
        SLACK_STATE_SECRET: 'slack-state-secret-04',
        SLACK_TOKEN_ENCRYPTION_KEY: key(1),
        SLACK_ALLOWED_TEAMS: 'T01',
        GITHUB_WEBHOOK_SECRET: 'github-webhook-secret-05',
        GITHUB_WEBHOOK_SECRET_PREVIOUS: 'github-webhook-secret-06',
        GITHUB_APP_ID: '7',
        GITHUB_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nkey-secret-07\n-----END PRIVATE KEY-----',
        LINEAR_WEBHOOK_SECRET: 'linear-webhook-secret-08',
        LINEAR_ACCESS_TOKEN: 'lin_oauth_secret_09',
        LINEAR_CLIENT_ID: 'linear-client',
        LINEAR_CLIENT_SECRET: 'linear-client-secret-10',
        LINEAR_TOKEN_ENCRYPTION_KEY: key(2),
        LINEAR_ALLOWED_ORGANIZATIONS: 'acme',
        JIRA_BASE_URL: 'https://acme.atlassian.net',
        JIRA_EMAIL: 'relay@acme.example',
        JIRA_API_TOKEN: 'jira-api-token-secret-11',
        JIRA_WEBHOOK_SECRET: 'jira-webhook-secret-12',
        JIRA_ALLOWED_PROJECTS: 'PROJ',
        TEAMS_APP_ID: guid(1),
        TEAMS_APP_PASSWORD: 'teams-app-password-13',
        TEAMS_TENANT_ID: guid(2),
        TEAMS_ALLOWED_TENANTS: guid(2),
        METRICS_TOKEN: 'metrics-token-secret-14',
        CONSOLE_SESSION_SECRET: 'console-session-secret-15-0123456789',
        CONSOLE_SLACK_TEAMS: 'T01',
        CONSOLE_GITHUB_ORGS: 'acme',
        GITHUB_CLIENT_ID: 'Iv1.x',
        GITHUB_CLIENT_SECRET: 'github-client-secret-16',
      },
      {
        SLACK_BOT_TOKEN: 'xoxb-secret-17',
        SLACK_APP_TOKEN: 'xapp-secret-18',
        GITHUB_WEBHOOK_SECRET: 'github-webhook-secret-19',
        GITHUB_TOKEN: 'github-token-secret-20',
        JIRA_CLIENT_ID: 'jira-client',
        JIRA_CLIENT_SECRET: 'jira-client-secret-21',
        JIRA_TOKEN_ENCRYPTION_KEY: key(3),
        JIRA_ALLOWED_SITES: 'acme.atlassian.net',
        JIRA_ALLOWED_PROJECTS: 'PROJ',
      },
    ];
    const covered = new Set<string>();
    for (const env of deployments) {
      const config = loadConfig(env);
      const holders = new Map<string, Set<string>>();
      const walk = (value: unknown, field: string): void => {
        if (typeof value === 'string')
          holders.set(value, (holders.get(value) ?? new Set()).add(field));
        else if (value !== null && typeof value === 'object')
          for (const [k, v] of Object.entries(value)) walk(v, Array.isArray(value) ? field : k);
      };
      walk(config, '');
      const printed = JSON.stringify(redactedConfig(config));
      for (const v of CONFIG_VARIABLES.filter((v) => v.secret && env[v.name] !== undefined)) {
        covered.add(v.name);
        const value = env[v.name]!;
        expect([...(holders.get(value) ?? [])].sort(), v.name).toEqual(
          [...(v.fields ?? [])].sort(),
        );
        if (v.name !== 'DATABASE_URL') expect(printed, v.name).not.toContain(value);
      }
      expect(printed).toContain('postgres://relay:***@db/relay'.repeat(env.DATABASE_URL ? 1 : 0));
    }
    expect([...covered].sort()).toEqual([...SECRET_VARIABLES].sort());
    for (const v of CONFIG_VARIABLES)
      expect(v.fields !== undefined, v.name).toBe(v.secret === true);
    expect([...SECRET_FIELDS].sort()).toEqual(
      [...new Set(CONFIG_VARIABLES.flatMap((v) => v.fields ?? []))].sort(),
    );
  });

  it('lists every exported agent_relay_ series', async () => {
    const { body } = await createMetrics({ defaultMetrics: false }).render();
    const names = [...body.matchAll(/^# TYPE agent_relay_(\w+) /gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    const documented = section('Metrics');
    for (const name of names) expect(documented).toContain(`\`${name}\``);
  });
});
