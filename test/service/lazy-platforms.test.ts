/**
 * A relay loads the libraries of the platforms it serves and no others: the real CLI in a
 * child process, started for Slack alone, never loads Microsoft's Teams SDK, Octokit, Linear's
 * SDK, the other platforms' code or the embedded emulator; turned on, Teams's SDK is loaded.
 * What was loaded is recorded by Node's module hooks (test/helpers/loaded-modules.mjs).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { startFakeSlackApi } from '../../src/fakes/slack-web-api.js';
import type { FakeSlackApi } from '../../src/fakes/slack-web-api.js';
import { cleanEnv, startChild } from '../helpers/child-process.js';
import { SECRETS } from '../helpers/secrets.js';
import {
  FAKE_TEAMS_APP_ID,
  FAKE_TEAMS_APP_PASSWORD,
  FAKE_TEAMS_TENANT,
} from '../../src/fakes/teams-connector.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Starts `agent-relay start` with `env`, waits until it listens, stops it: what it loaded. */
async function modulesLoadedBy(env: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-lazy-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const emulator: Emulator = await startEmulator({ apiKey: SECRETS.agentApiKey });
  const slack: FakeSlackApi = await startFakeSlackApi();
  cleanup.push(
    () => emulator.close(),
    () => slack.close(),
  );
  const file = join(dir, 'modules.txt');
  const child = startChild(
    process.execPath,
    ['--import', 'tsx', '--import', './test/helpers/loaded-modules.mjs', 'src/cli.ts', 'start'],
    cleanEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'relay.db'),
      AGENT_API_URL: emulator.baseUrl,
      AGENT_API_KEY: SECRETS.agentApiKey,
      SLACK_SIGNING_SECRET: SECRETS.slackSigningSecret,
      SLACK_BOT_TOKEN: SECRETS.slackBotToken,
      SLACK_API_URL: slack.url,
      LOADED_MODULES_FILE: file,
      ...env,
    }),
  );
  cleanup.push(() => child.signalGroup('SIGKILL'));
  await child.waitForLine((l) => String(l.msg).includes('listening'), 20_000);
  child.signalGroup('SIGTERM');
  expect(await child.exited).toEqual({ code: 0, signal: null });
  return readFileSync(file, 'utf8').split('\n');
}

const loads = (modules: string[], part: string) => modules.some((url) => url.includes(part));

describe('platform libraries load only for the platforms that are on', () => {
  it('a Slack-only relay loads Bolt and no other platform, SDK or the emulator', async () => {
    const modules = await modulesLoadedBy({});
    expect(loads(modules, '/node_modules/@slack/bolt/')).toBe(true);
    expect(loads(modules, '/src/slack/module.ts')).toBe(true);
    for (const absent of [
      '/node_modules/@microsoft/',
      '/node_modules/jwks-rsa/',
      '/node_modules/@octokit/',
      '/node_modules/@linear/sdk/',
      '/node_modules/pino-pretty/',
      '/src/teams/module.ts',
      '/src/github/module.ts',
      '/src/linear/module.ts',
      '/src/jira/module.ts',
      '/src/emulator/',
    ])
      expect({ absent, loaded: loads(modules, absent) }).toEqual({ absent, loaded: false });
  }, 60_000);

  it('with Teams on, its module and Microsoft’s SDK are loaded', async () => {
    const modules = await modulesLoadedBy({
      TEAMS_APP_ID: FAKE_TEAMS_APP_ID,
      TEAMS_APP_PASSWORD: FAKE_TEAMS_APP_PASSWORD,
      TEAMS_TENANT_ID: FAKE_TEAMS_TENANT,
      TEAMS_ALLOWED_TENANTS: FAKE_TEAMS_TENANT,
    });
    expect(loads(modules, '/src/teams/module.ts')).toBe(true);
    expect(loads(modules, '/node_modules/@microsoft/teams.api/')).toBe(true);
    expect(loads(modules, '/src/linear/module.ts')).toBe(false);
  }, 60_000);
});
