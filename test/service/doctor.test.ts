import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGitHub } from '../../src/fakes/github-rest-api.js';
import type { FakeGitHub } from '../../src/fakes/github-rest-api.js';
import { startFakeSlackApi } from '../../src/fakes/slack-web-api.js';
import type { FakeSlackApi } from '../../src/fakes/slack-web-api.js';
import { runDoctor } from '../../src/service/doctor.js';
import { startFakeLinear } from '../../src/fakes/linear-graphql-api.js';
import {
  FAKE_JIRA_EMAIL,
  FAKE_JIRA_TOKEN,
  RELAY_ACCOUNT_ID,
  startFakeJira,
} from '../../src/fakes/jira-rest-api.js';
import { FAST_TIMINGS, startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-doctor-'));
/** The GitHub App the doctor checks: its id and key, installed on one repository. */
const APP_ID = 4242;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
let emulator: Emulator;
let slack: FakeSlackApi;
let github: FakeGitHub;
beforeAll(async () => {
  [emulator, slack, github] = await Promise.all([
    startEmulator({ apiKey: 'agent-key-ok', timings: FAST_TIMINGS }),
    startFakeSlackApi({ token: 'xoxb-good-token', identity: { team: 'Demo' } }),
    startFakeGitHub({ token: 'ghp_good_token', app: { appId: APP_ID, publicKey } }),
  ]);
  github.setInstallation('acme', 'webapp', 1);
});
afterAll(async () => {
  await Promise.all([emulator.close(), slack.close(), github.close()]);
  rmSync(dir, { recursive: true, force: true });
});

async function doctor(env: Record<string, string>) {
  const lines: string[] = [];
  const code = await runDoctor({
    env: { DATABASE_URL: join(dir, 'doctor.db'), ...env },
    out: (line) => lines.push(line),
    timeoutMs: 3_000,
  });
  return { code, text: lines.join('\n'), lines };
}

/** The emulator as the agent service, with the key it accepts. */
const agentEnv = () => ({ AGENT_API_URL: emulator.baseUrl, AGENT_API_KEY: 'agent-key-ok' });

/** The agent service, Slack and GitHub with credentials the fakes accept. */
const healthyEnv = () => ({
  ...agentEnv(),
  SLACK_SIGNING_SECRET: 'sig',
  SLACK_BOT_TOKEN: 'xoxb-good-token',
  SLACK_API_URL: slack.url,
  GITHUB_WEBHOOK_SECRET: 'wh',
  GITHUB_TOKEN: 'ghp_good_token',
  GITHUB_API_URL: github.url,
});

/** The agent service and Jira on the site at `url`, all but the API token. */
const jiraEnv = (url: string) => ({
  ...agentEnv(),
  JIRA_BASE_URL: url,
  JIRA_EMAIL: FAKE_JIRA_EMAIL,
  JIRA_WEBHOOK_SECRET: 'jira-webhook-secret-dummy-0123',
  JIRA_ALLOWED_PROJECTS: 'PROJ',
});

const line = (text: string, name: string) =>
  text.split('\n').find((l) => l.includes(` ${name} `)) ?? '';

describe('agent-relay doctor', () => {
  it('reports every dependency as healthy', async () => {
    const { code, text } = await doctor(healthyEnv());
    expect(line(text, 'configuration')).toMatch(/✔ configuration +valid/);
    expect(line(text, 'database')).toMatch(/✔ database +SQLite at .*doctor\.db: reachable/);
    expect(line(text, 'agent service')).toContain(
      `✔ agent service  ${emulator.baseUrl} answered; AGENT_API_KEY accepted`,
    );
    expect(line(text, 'slack')).toMatch(
      /✔ slack +auth\.test ok: bot agent-relay in team Demo \(HTTP mode\)/,
    );
    expect(line(text, 'github')).toMatch(
      /✔ github +GITHUB_TOKEN accepted by http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(text).toContain('5 ok, 0 failed, 3 skipped');
    expect(code).toBe(0);
  });

  it('names each rejected credential and exits 1, without printing a secret', async () => {
    const { code, text } = await doctor({
      ...healthyEnv(),
      AGENT_API_KEY: 'agent-key-WRONG',
      SLACK_BOT_TOKEN: 'xoxb-WRONG',
      GITHUB_TOKEN: 'ghp_WRONG',
    });
    expect(line(text, 'agent service')).toContain(
      `✘ agent service  ${emulator.baseUrl} rejected AGENT_API_KEY (401)`,
    );
    expect(line(text, 'slack')).toContain(
      '✘ slack          auth.test: invalid_auth (check SLACK_BOT_TOKEN)',
    );
    expect(line(text, 'github')).toContain(
      `✘ github         GITHUB_TOKEN was rejected by ${github.url} (401)`,
    );
    expect(text).toContain('2 ok, 3 failed, 3 skipped');
    expect(text).not.toContain('WRONG');
    expect(code).toBe(1);
  });

  it("with Slack OAuth install (an app for many workspaces), names Slack's limit on history reads", async () => {
    const { text } = await doctor({
      ...agentEnv(),
      SLACK_SIGNING_SECRET: 'sig',
      SLACK_CLIENT_ID: '1.2',
      SLACK_CLIENT_SECRET: 'slack-client-secret-dummy',
      SLACK_STATE_SECRET: 'slack-state-secret-dummy-0123456789',
      SLACK_TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
      SLACK_ALLOW_ANY_WORKSPACE: '1',
      SLACK_API_URL: slack.url,
    });
    expect(line(text, 'slack')).toContain('not approved for the Slack Marketplace');
    expect(line(text, 'slack')).toContain('15 messages');
  });

  it('checks a GitHub App with a JWT signed by its key', async () => {
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const { text } = await doctor({
      GITHUB_WEBHOOK_SECRET: 'wh',
      GITHUB_APP_ID: String(APP_ID),
      GITHUB_PRIVATE_KEY: pem,
      GITHUB_API_URL: github.url,
    });
    expect(line(text, 'github')).toContain(
      '✔ github         GitHub App agent-relay authenticated, 1 installation(s)',
    );
    expect(text).not.toContain('PRIVATE KEY');
  });

  it('on the embedded defaults: the emulator answers, every platform is skipped with how to enable it', async () => {
    const { code, text } = await doctor({});
    expect(line(text, 'agent service')).toContain(
      '✔ agent service  embedded emulator starts and answers',
    );
    expect(line(text, 'slack')).toMatch(
      /– slack +off \(set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN/,
    );
    expect(line(text, 'github')).toMatch(/– github +off \(set GITHUB_WEBHOOK_SECRET/);
    expect(line(text, 'linear')).toMatch(/– linear +off \(set LINEAR_WEBHOOK_SECRET/);
    expect(line(text, 'jira')).toMatch(/– jira +off \(set JIRA_BASE_URL/);
    expect(line(text, 'teams')).toMatch(/– teams +off \(set TEAMS_APP_ID/);
    expect(code).toBe(0);
  });

  it('Linear, when on: the app token is asked whose it is; a rejected one fails, unprinted', async () => {
    const linear = await startFakeLinear();
    try {
      const token = linear.workspaces[0]!.token;
      const base = {
        ...agentEnv(),
        LINEAR_WEBHOOK_SECRET: 'linear-secret-dummy',
        LINEAR_API_URL: linear.url,
      };
      const good = await doctor({ ...base, LINEAR_ACCESS_TOKEN: token });
      expect(line(good.text, 'linear')).toMatch(
        /✔ linear +LINEAR_ACCESS_TOKEN accepted by http:\/\/127\.0\.0\.1:\d+\/graphql: app user app-user-acme in org-acme/,
      );
      expect(linear.requests.at(-1)?.operation).toBe('Viewer');
      expect(good.code).toBe(0);

      const bad = await doctor({ ...base, LINEAR_ACCESS_TOKEN: 'lin_oauth_dummy_wrong' });
      expect(line(bad.text, 'linear')).toMatch(/✘ linear +LINEAR_ACCESS_TOKEN was rejected by/);
      expect(bad.text).not.toContain('lin_oauth_dummy_wrong');
      expect(bad.code).toBe(1);

      // Off: not listed, as in the start-up report.
      const off = await doctor(agentEnv());
      expect(off.code).toBe(0);
      expect(line(off.text, 'linear')).toMatch(/^ {2}– linear +off \(set LINEAR_WEBHOOK_SECRET/);
    } finally {
      await linear.close();
    }
  });

  it('Jira, when on: its account is asked of the site; a rejected token fails, unprinted', async () => {
    const jira = await startFakeJira();
    try {
      const base = jiraEnv(jira.url);
      const good = await doctor({ ...base, JIRA_API_TOKEN: FAKE_JIRA_TOKEN });
      expect(line(good.text, 'jira')).toMatch(
        new RegExp(
          `✔ jira +JIRA_API_TOKEN accepted by http://127\\.0\\.0\\.1:\\d+: account ${RELAY_ACCOUNT_ID}`,
        ),
      );
      expect(good.code).toBe(0);
      const bad = await doctor({ ...base, JIRA_API_TOKEN: 'jira-token-dummy-wrong' });
      expect(line(bad.text, 'jira')).toMatch(/✘ jira +JIRA_EMAIL and JIRA_API_TOKEN were rejected/);
      expect(bad.text).not.toContain('jira-token-dummy-wrong');
      expect(bad.code).toBe(1);
    } finally {
      await jira.close();
    }
    const dataCenter = await startFakeJira({ deploymentType: 'DataCenter' });
    try {
      const found = await doctor({
        ...jiraEnv(dataCenter.url),
        JIRA_API_TOKEN: FAKE_JIRA_TOKEN,
      });
      expect(line(found.text, 'jira')).toMatch(/✘ jira .* is a Jira DataCenter site; .*Cloud only/);
      expect(found.code).toBe(1);
    } finally {
      await dataCenter.close();
    }
  });

  it('an unreachable service fails its check saying why and what to check; an invalid configuration stops early', async () => {
    // A port that just closed: nothing listens there.
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const nowhere = `http://127.0.0.1:${closed}`;
    const unreachable = await doctor({
      AGENT_API_URL: `${nowhere}/api/v1`,
      AGENT_API_KEY: 'k',
      SLACK_SIGNING_SECRET: 'signing-secret-0123456789',
      SLACK_BOT_TOKEN: 'xoxb-good-token',
      SLACK_API_URL: `${nowhere}/api/`,
      GITHUB_WEBHOOK_SECRET: 'webhook-secret-0123456789',
      GITHUB_TOKEN: 'ghp_good_token',
      GITHUB_API_URL: nowhere,
    });
    const refused = 'unreachable: nothing listens there (ECONNREFUSED)';
    expect(line(unreachable.text, 'agent service')).toBe(
      `  ✘ agent service  ${nowhere}/api/v1 ${refused}; is the service running there? (AGENT_API_URL)`,
    );
    expect(line(unreachable.text, 'slack')).toBe(
      `  ✘ slack          Slack Web API at ${nowhere}/api/ ${refused}; check SLACK_API_URL`,
    );
    // Octokit's stand-in status for "no response" is 500; the line says what happened.
    expect(line(unreachable.text, 'github')).toBe(
      `  ✘ github         ${nowhere} ${refused}; check GITHUB_API_URL or the network`,
    );
    expect(unreachable.text).not.toContain('HTTP 500');
    expect(unreachable.code).toBe(1);

    const invalid = await doctor({ PORT: 'abc', SLACK_SIGNING_SECRET: 'x' });
    expect(invalid.text).toMatch(/✘ configuration +2 problem\(s\)/);
    expect(invalid.text).toContain('PORT: must be a whole number');
    expect(invalid.text).toContain('SLACK_BOT_TOKEN: required with SLACK_SIGNING_SECRET');
    expect(invalid.text).not.toContain('database');
    expect(invalid.code).toBe(1);
  });
});
