/**
 * The relay as an operator runs it with OAuth install on (any number of workspaces): the
 * whole service (`startRelayService`) on loopback with its embedded emulator, a SQLite file, and
 * the fake Slack Web API that knows several workspaces, each with its own code and token.
 */
import type { Logger } from '../../../src/core/ports/index.js';
import type { FakeSlackApi, FakeWorkspace } from '../../../src/fakes/slack-web-api.js';
import { startFakeSlackApi } from '../../../src/fakes/slack-web-api.js';
import type { RunningService } from '../../../src/main.js';
import { startRelayService } from '../../helpers/relay.js';
import {
  TEST_SIGNING_SECRET,
  appMentionEvent,
  eventCallback,
  postSlack,
} from '../../helpers/slack.js';
import { worldPerTest } from '../../helpers/world-per-test.js';

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

/**
 * A workspace of the fake Slack Web API: its team id and name, and a slug and a bot suffix
 * that make its install code, its dummy bot token and its bot's ids.
 */
export function fakeWorkspace(
  teamId: string,
  team: string,
  slug: string,
  bot: string,
): FakeWorkspace {
  return {
    team_id: teamId,
    team,
    code: `code-${slug}`,
    token: `xoxb-${slug}-dummy`,
    bot_user_id: `UBOT${bot}`,
    bot_id: `BBOT${bot}`,
  };
}

/** The workspace most tests install: team One, its bot and its token (dummy values). */
export const WORKSPACE_ONE = fakeWorkspace('TONE00001', 'One', 'one', 'ONE01');

/** An Enterprise Grid organisation's workspace, the app installed organisation-wide. */
export const WORKSPACE_ORG: FakeWorkspace = {
  team_id: 'TORGWS001',
  team: 'Org workspace',
  enterprise_id: 'EORG00001',
  orgWide: true,
  code: 'code-org',
  token: 'xoxb-org-dummy',
  bot_user_id: 'UBOTORG01',
  bot_id: 'BBOTORG01',
};

/** An app_mention of the bot in `channel` of workspace `ws`, as Slack sends it there. */
export function mention(ws: FakeWorkspace, channel: string, text: string, ts: string) {
  const event = {
    ...appMentionEvent({ text: `<@${ws.bot_user_id}> ${text}`, ts, channel }),
    team: ws.team_id,
  };
  return eventCallback(event, {
    teamId: ws.team_id,
    botUserId: ws.bot_user_id,
    ...(ws.enterprise_id ? { enterpriseId: ws.enterprise_id } : {}),
    ...(ws.orgWide ? { isEnterpriseInstall: true } : {}),
  });
}

/**
 * Call at a test file's top level: returns `startWorkspaces`, and what it started in a test
 * is closed after that test.
 */
export function workspacesPerTest(): typeof startWorkspaces {
  return worldPerTest(startWorkspaces);
}

export async function startWorkspaces(
  workspaces: FakeWorkspace[],
  env: Record<string, string> = {},
  options: {
    homeRefreshMs?: number;
    slowRunMs?: number;
    /** A single-workspace token the fake also accepts (it answers as team T0000001). */
    botToken?: string;
    /** Where the service logs; default nowhere. */
    logger?: Logger;
  } = {},
): Promise<Workspaces> {
  const api = await startFakeSlackApi({
    workspaces,
    client: CLIENT,
    ...(options.botToken === undefined ? {} : { token: options.botToken }),
  });
  const started = await startRelayService(
    {
      EMULATOR_FAST: '1',
      POLL_INTERVAL_MS: '50',
      SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
      SLACK_CLIENT_ID: CLIENT.id,
      SLACK_CLIENT_SECRET: CLIENT.secret,
      SLACK_STATE_SECRET: 'state-secret-0123456789abcdef',
      SLACK_TOKEN_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SLACK_API_URL: api.url,
      ...(options.botToken === undefined ? {} : { SLACK_BOT_TOKEN: options.botToken }),
      ...(env.SLACK_ALLOWED_TEAMS === undefined ? { SLACK_ALLOW_ANY_WORKSPACE: '1' } : {}),
      ...env,
    },
    {
      announce: false,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      engineOptions: { workerPollMs: 10 },
      platforms: {
        slackAuthorizationUrl: 'https://slack.test/oauth/v2/authorize',
        ...(options.homeRefreshMs === undefined
          ? {}
          : { slackHomeRefreshMs: options.homeRefreshMs }),
      },
      ...(options.slowRunMs === undefined
        ? {}
        : { emulatorTimings: { slowRunMs: options.slowRunMs } }),
    },
  );
  const { service, databasePath: dbPath } = started;
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
      await started.close();
      await api.close();
    },
  };
}
