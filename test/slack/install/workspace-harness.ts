/**
 * The relay as an operator runs it with OAuth install on (any number of workspaces): the
 * whole service (`startService`) on loopback with its embedded emulator, a SQLite file, and
 * the fake Slack Web API that knows several workspaces, each with its own code and token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load.js';
import type { FakeSlackApi, FakeWorkspace } from '../../../src/fakes/slack-web-api.js';
import { startFakeSlackApi } from '../../../src/fakes/slack-web-api.js';
import type { RunningService } from '../../../src/main.js';
import { startService } from '../../../src/main.js';
import type { Logger } from '../../../src/core/ports/index.js';
import { TEST_SIGNING_SECRET, postSlack } from '../../helpers/slack.js';

export const CLIENT = { id: '1111111111.2222222222', secret: 'client-secret-0123456789abcdef' };
/** A dummy key (32 bytes of 0x2a), for tests only. */
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 42).toString('base64');

export interface Workspaces {
  service: RunningService;
  api: FakeSlackApi;
  dbPath: string;
  events: string;
  post(body: string): Promise<Response>;
  /** The install page, then Slack's redirect with this workspace's code. */
  install(code: string): Promise<Response>;
  /** POST a signed form body (interactivity) to /slack/events. */
  postForm(body: string): Promise<Response>;
  close(): Promise<void>;
}

export async function startWorkspaces(
  workspaces: FakeWorkspace[],
  env: Record<string, string> = {},
  options: {
    homeRefreshMs?: number;
    slowRunMs?: number;
    /** A single-workspace token the fake also accepts (it answers as team T0000001). */
    botToken?: string;
    /** Where the service logs (default nowhere). */
    logger?: Logger;
  } = {},
): Promise<Workspaces> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-workspaces-'));
  const dbPath = join(dir, 'relay.db');
  const api = await startFakeSlackApi({
    workspaces,
    client: CLIENT,
    ...(options.botToken === undefined ? {} : { token: options.botToken }),
  });
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: dbPath,
    EMULATOR_FAST: '1',
    POLL_INTERVAL_MS: '50',
    SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
    SLACK_CLIENT_ID: CLIENT.id,
    SLACK_CLIENT_SECRET: CLIENT.secret,
    SLACK_STATE_SECRET: 'state-secret-0123456789abcdef',
    SLACK_TOKEN_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    SLACK_API_URL: api.url,
    ...(options.botToken === undefined ? {} : { SLACK_BOT_TOKEN: options.botToken }),
    ...env,
  });
  const service = await startService(config, {
    announce: false,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    engineOptions: { workerPollMs: 10 },
    platforms: {
      slackAuthorizationUrl: 'https://slack.test/oauth/v2/authorize',
      ...(options.homeRefreshMs === undefined ? {} : { slackHomeRefreshMs: options.homeRefreshMs }),
    },
    ...(options.slowRunMs === undefined
      ? {}
      : { emulatorTimings: { slowRunMs: options.slowRunMs } }),
  });
  const events = `${service.url}/slack/events`;
  return {
    service,
    api,
    dbPath,
    events,
    post: (body) => postSlack(events, body),
    postForm: (body) =>
      postSlack(events, body, { contentType: 'application/x-www-form-urlencoded' }),
    async install(code) {
      const page = await fetch(`${service.url}/slack/install`);
      const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
      const html = await page.text();
      const state = /[?&;]state=([^"&]+)/.exec(html)?.[1] ?? '';
      return fetch(
        `${service.url}/slack/oauth_redirect?code=${encodeURIComponent(code)}&state=${state}`,
        { headers: { cookie } },
      );
    },
    async close() {
      await service.stop();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
