import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, readEnvironment, redactedConfig } from '../../src/config/load.js';
import type { Config, ConfigError } from '../../src/config/load.js';
import { configIssues } from './config-issues.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\n';

describe('loadConfig: defaults', () => {
  it('starts on the embedded defaults with no configuration at all', () => {
    const config = loadConfig({});
    expect(config).toEqual<Config>({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: './data/agent-relay.db',
      agent: { kind: 'emulator', fast: false },
      pollIntervalMs: 2000,
      trackerMode: 'batch',
      maxPromptChars: 20_000,
      shutdownTimeoutMs: 10_000,
      leaseMs: 120_000,
      ingressBurstPerSecond: 150,
      progressReadsPerMinute: 60,
      retentionDays: 7,
      runRetentionDays: 90,
      slack: undefined,
      github: undefined,
      // The embedded default: the console is on, reached through the local admin link.
      console: { session: { hours: 12 }, adminLink: true, adminLinkMinutes: 15 },
      log: { level: 'info', pretty: false },
      notes: [],
    });
  });

  it('treats empty values as unset and ignores unrelated variables', () => {
    const config = loadConfig({ PORT: '', SLACK_BOT_TOKEN: '  ', PATH: '/bin', HOME: '/root' });
    expect(config.port).toBe(3000);
    expect(config.slack).toBeUndefined();
  });

  it('LOG_PRETTY defaults to whether stdout is a TTY, and the variable wins', () => {
    expect(loadConfig({}, { isTTY: true }).log.pretty).toBe(true);
    expect(loadConfig({ LOG_PRETTY: '0' }, { isTTY: true }).log.pretty).toBe(false);
    expect(loadConfig({ LOG_PRETTY: 'yes' }, { isTTY: false }).log.pretty).toBe(true);
  });
});

describe('loadConfig: every variable', () => {
  it('reads the server, database, tracker and logging variables', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite:/var/lib/relay.db',
      POLL_INTERVAL_MS: '500',
      TRACKER_MODE: 'per-run',
      MAX_PROMPT_CHARS: '4000',
      SHUTDOWN_TIMEOUT_MS: '2500',
      LEASE_MS: '5000',
      INGRESS_BURST_PER_SECOND: '0',
      RETENTION_DAYS: '30',
      EMULATOR_FAST: 'true',
      LOG_LEVEL: 'DEBUG',
      LOG_PRETTY: '1',
    });
    expect(config).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:/var/lib/relay.db',
      pollIntervalMs: 500,
      trackerMode: 'per-run',
      maxPromptChars: 4000,
      shutdownTimeoutMs: 2500,
      leaseMs: 5000,
      ingressBurstPerSecond: 0,
      retentionDays: 30,
      agent: { kind: 'emulator', fast: true },
      log: { level: 'debug', pretty: true },
    });
  });

  it('uses the real service with AGENT_API_URL + AGENT_API_KEY', () => {
    const config = loadConfig({
      AGENT_API_URL: 'https://svc.example/api/v1/',
      AGENT_API_KEY: 'k-1',
    });
    expect(config.agent).toEqual({
      kind: 'remote',
      url: 'https://svc.example/api/v1',
      apiKey: 'k-1',
    });
  });

  it('enables Slack (HTTP mode) with the signing secret and bot token', () => {
    const config = loadConfig({
      SLACK_SIGNING_SECRET: 'sig',
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_API_URL: 'http://127.0.0.1:9/api',
      SLACK_COMMAND: '/relay',
      SLACK_ALLOWED_CHANNELS: 'C01, C02',
      SLACK_ALLOWED_USERS: 'U01',
    });
    expect(config.slack).toEqual({
      signingSecret: 'sig',
      botToken: 'xoxb-1',
      appToken: undefined,
      apiUrl: 'http://127.0.0.1:9/api/',
      command: '/relay',
      allowedChannels: ['C01', 'C02'],
      allowedUsers: ['U01'],
      replyWithoutMention: true,
      allowedTeams: [],
      allowAnyWorkspace: false,
      adminUsers: [],
      allowExternalUsers: false,
      allowGuests: false,
    });
  });

  it('enables Slack in Socket Mode with the app token and bot token', () => {
    const config = loadConfig({
      SLACK_APP_TOKEN: 'xapp-1',
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_REPLY_WITHOUT_MENTION: 'off',
    });
    expect(config.slack).toMatchObject({
      appToken: 'xapp-1',
      botToken: 'xoxb-1',
      replyWithoutMention: false,
    });
    expect(config.slack?.signingSecret).toBeUndefined();
  });

  it('enables GitHub with a webhook secret and a token', () => {
    const config = loadConfig({
      GITHUB_WEBHOOK_SECRET: 'whs',
      GITHUB_WEBHOOK_SECRET_PREVIOUS: 'old',
      GITHUB_TOKEN: 'ghp_x',
      GITHUB_API_URL: 'https://ghe.example/api/v3/',
      GITHUB_BOT_HANDLE: '@relay-bot',
      GITHUB_TRIGGER_LABEL: 'ai',
      GITHUB_ALLOWED_ASSOCIATIONS: 'owner, member',
      GITHUB_MIN_PERMISSION: 'Maintain',
    });
    expect(config.github).toEqual({
      webhookSecret: 'whs',
      previousWebhookSecret: 'old',
      auth: { kind: 'token', token: 'ghp_x' },
      apiUrl: 'https://ghe.example/api/v3',
      botHandle: 'relay-bot',
      triggerLabel: 'ai',
      allowedAssociations: ['OWNER', 'MEMBER'],
      minPermission: 'maintain',
    });
  });

  it('GITHUB_MIN_PERMISSION defaults to write and takes only GitHub repository roles', () => {
    const github = { GITHUB_WEBHOOK_SECRET: 'w', GITHUB_TOKEN: 't' };
    expect(loadConfig(github).github?.minPermission).toBe('write');
    expect(loadConfig({ ...github, GITHUB_MIN_PERMISSION: 'triage' }).github?.minPermission).toBe(
      'triage',
    );
    expect(() => loadConfig({ ...github, GITHUB_MIN_PERMISSION: 'owner' })).toThrow(
      /GITHUB_MIN_PERMISSION.*must be one of read, triage, write, maintain, admin/s,
    );
  });

  it('uses GitHub App auth with an inline key (\\n escapes) or a key file', () => {
    const inline = loadConfig({
      GITHUB_WEBHOOK_SECRET: 'w',
      GITHUB_APP_ID: '42',
      GITHUB_PRIVATE_KEY: PEM.replace(/\n/g, '\\n'),
    });
    expect(inline.github?.auth).toEqual({ kind: 'app', appId: 42, privateKey: PEM });

    const file = join(dir, 'key.pem');
    writeFileSync(file, PEM);
    const fromFile = loadConfig({
      GITHUB_WEBHOOK_SECRET: 'w',
      GITHUB_APP_ID: '42',
      GITHUB_PRIVATE_KEY_PATH: file,
    });
    expect(fromFile.github?.auth).toEqual({ kind: 'app', appId: 42, privateKey: PEM });
  });

  it('notes credentials that do nothing', () => {
    const config = loadConfig({ GITHUB_TOKEN: 't', AGENT_API_KEY: 'k' });
    expect(config.github).toBeUndefined();
    expect(config.agent.kind).toBe('emulator');
    expect(config.notes).toHaveLength(2);
  });

  it('reads INGRESS_BURST_PER_SECOND without a note; 0 turns the ingress-first gate off', () => {
    expect(loadConfig({ INGRESS_BURST_PER_SECOND: '120' })).toMatchObject({
      ingressBurstPerSecond: 120,
      notes: [],
    });
    expect(loadConfig({ INGRESS_BURST_PER_SECOND: '0' }).ingressBurstPerSecond).toBe(0);
  });
});

describe('loadConfig: problems, all at once', () => {
  it('lists every problem with its variable name', () => {
    const issues = configIssues({
      PORT: 'eighty',
      HOST: '',
      DATABASE_URL: 'mysql://db/x',
      AGENT_API_URL: 'ftp://svc',
      POLL_INTERVAL_MS: '-5',
      TRACKER_MODE: 'sometimes',
      MAX_PROMPT_CHARS: '10',
      SHUTDOWN_TIMEOUT_MS: '1.5',
      LEASE_MS: '999',
      INGRESS_BURST_PER_SECOND: '-1',
      RETENTION_DAYS: 'a week',
      EMULATOR_FAST: 'maybe',
      SLACK_BOT_TOKEN: 'xoxp-user-token',
      SLACK_APP_TOKEN: 'nope',
      SLACK_API_URL: 'not a url',
      SLACK_COMMAND: 'agent',
      SLACK_ALLOWED_CHANNELS: 'general',
      SLACK_ALLOWED_USERS: 'bob',
      SLACK_REPLY_WITHOUT_MENTION: 'sometimes',
      GITHUB_APP_ID: 'abc',
      GITHUB_API_URL: 'api.github.com',
      GITHUB_BOT_HANDLE: 'bad handle!',
      GITHUB_ALLOWED_ASSOCIATIONS: 'OWNER,ADMIN',
      LOG_LEVEL: 'loud',
      LOG_PRETTY: 'sometimes',
    });
    const variables = issues.map((i) => i.variable);
    expect(new Set(variables)).toEqual(
      new Set([
        'PORT',
        'DATABASE_URL',
        'AGENT_API_URL',
        'AGENT_API_KEY',
        'POLL_INTERVAL_MS',
        'TRACKER_MODE',
        'MAX_PROMPT_CHARS',
        'SHUTDOWN_TIMEOUT_MS',
        'LEASE_MS',
        'INGRESS_BURST_PER_SECOND',
        'RETENTION_DAYS',
        'EMULATOR_FAST',
        'SLACK_BOT_TOKEN',
        'SLACK_APP_TOKEN',
        'SLACK_API_URL',
        'SLACK_COMMAND',
        'SLACK_ALLOWED_CHANNELS',
        'SLACK_ALLOWED_USERS',
        'SLACK_REPLY_WITHOUT_MENTION',
        'GITHUB_APP_ID',
        'GITHUB_PRIVATE_KEY',
        'GITHUB_API_URL',
        'GITHUB_BOT_HANDLE',
        'GITHUB_ALLOWED_ASSOCIATIONS',
        'LOG_LEVEL',
        'LOG_PRETTY',
      ]),
    );
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(5);
  });

  it.each([
    [{ AGENT_API_URL: 'http://svc/api/v1' }, 'AGENT_API_KEY'],
    [{ SLACK_SIGNING_SECRET: 's' }, 'SLACK_BOT_TOKEN'],
    [{ SLACK_BOT_TOKEN: 'xoxb-1' }, 'SLACK_SIGNING_SECRET'],
    [{ SLACK_APP_TOKEN: 'xapp-1' }, 'SLACK_BOT_TOKEN'],
    [{ GITHUB_WEBHOOK_SECRET: 'w' }, 'GITHUB_TOKEN'],
    [{ GITHUB_WEBHOOK_SECRET_PREVIOUS: 'w', GITHUB_TOKEN: 't' }, 'GITHUB_WEBHOOK_SECRET'],
    [{ GITHUB_APP_ID: '1', GITHUB_WEBHOOK_SECRET: 'w' }, 'GITHUB_PRIVATE_KEY'],
    [{ GITHUB_PRIVATE_KEY: PEM }, 'GITHUB_APP_ID'],
    [{ GITHUB_APP_ID: '1', GITHUB_PRIVATE_KEY: 'not a key' }, 'GITHUB_PRIVATE_KEY'],
    [{ GITHUB_APP_ID: '1', GITHUB_PRIVATE_KEY: PEM, GITHUB_TOKEN: 't' }, 'GITHUB_TOKEN'],
    [
      { GITHUB_APP_ID: '1', GITHUB_PRIVATE_KEY: PEM, GITHUB_PRIVATE_KEY_PATH: '/k.pem' },
      'GITHUB_PRIVATE_KEY_PATH',
    ],
    [
      { GITHUB_APP_ID: '1', GITHUB_PRIVATE_KEY_PATH: '/nonexistent/k.pem' },
      'GITHUB_PRIVATE_KEY_PATH',
    ],
  ])('a half-configured combination %j names %s', (env, variable) => {
    expect(configIssues(env).map((i) => i.variable)).toContain(variable);
  });

  it('never echoes a secret value in an error', () => {
    const secrets = {
      SLACK_SIGNING_SECRET: 'sig-SECRET-1',
      SLACK_APP_TOKEN: 'bad-SECRET-2',
      GITHUB_PRIVATE_KEY: 'garbage-SECRET-3',
      GITHUB_APP_ID: 'x',
      GITHUB_TOKEN: 'ghp_SECRET-4',
      AGENT_API_KEY: 'key-SECRET-5',
      AGENT_API_URL: 'nope',
    };
    let message = '';
    try {
      loadConfig(secrets);
    } catch (err) {
      message = (err as Error).message + JSON.stringify((err as ConfigError).issues);
    }
    expect(message).toContain('SLACK_BOT_TOKEN');
    expect(message).not.toMatch(/SECRET-\d/);
  });

  it('says each distinct problem once', () => {
    const issues = configIssues({ SLACK_SIGNING_SECRET: 's', SLACK_APP_TOKEN: 'xapp-1' });
    expect(issues.filter((i) => i.variable === 'SLACK_BOT_TOKEN')).toHaveLength(2);
    expect(new Set(issues.map((i) => i.message)).size).toBe(issues.length);
  });
});

describe('redactedConfig', () => {
  it('prints *** for every secret and masks a database password', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://relay:db-pass-9@db:5432/relay',
      AGENT_API_URL: 'http://svc/api/v1',
      AGENT_API_KEY: 'key-secret-1',
      SLACK_SIGNING_SECRET: 'sig-secret-2',
      SLACK_BOT_TOKEN: 'xoxb-secret-3',
      SLACK_APP_TOKEN: 'xapp-secret-4',
      GITHUB_WEBHOOK_SECRET: 'wh-secret-5',
      GITHUB_WEBHOOK_SECRET_PREVIOUS: 'wh-secret-6',
      GITHUB_APP_ID: '7',
      GITHUB_PRIVATE_KEY: PEM,
    });
    const printed = JSON.stringify(redactedConfig(config));
    expect(printed).not.toMatch(/secret-\d|db-pass|MIIEow/);
    expect(printed).toContain('postgres://relay:***@db:5432/relay');
    expect(printed).toContain('"apiKey":"***"');
    expect(printed).toContain('"appId":7');
  });
});

describe('readEnvironment', () => {
  it('merges an optional .env file under the real environment', () => {
    const file = join(dir, '.env');
    writeFileSync(file, 'RELAY_TEST_FROM_FILE=file\nRELAY_TEST_BOTH=file\n');
    process.env.RELAY_TEST_BOTH = 'real';
    try {
      const env = readEnvironment(file);
      expect(env.RELAY_TEST_FROM_FILE).toBe('file');
      expect(env.RELAY_TEST_BOTH).toBe('real');
      expect(() => readEnvironment(join(dir, 'missing.env'))).not.toThrow();
    } finally {
      delete process.env.RELAY_TEST_FROM_FILE;
      delete process.env.RELAY_TEST_BOTH;
    }
  });
});
