/**
 * Starting the relay for a test, the documented way (test/README.md):
 *
 * - `startRelay` (or `relayPerTest`): the whole service in this process, as production wires
 *   it (`startService` from a config parsed by `loadConfig`): real HTTP server on loopback,
 *   real SQLite file in a temp directory, real Bolt and webhook ingress, the real agent client
 *   against the emulator, and the real notifiers against the fake Slack Web API and the fake
 *   GitHub REST API (App auth). Logs go through the product's pino logger (redaction
 *   included) at debug level into memory.
 * - `startRelayService`: the same `startService` on loopback and a temp SQLite file with only
 *   the environment a test gives: for a relay in another world (the embedded emulator, OAuth
 *   workspaces, the console's sign-in providers: test/console, test/slack/install).
 * - `startRelayFakes` and `relayEnv`: the same world and configuration for a relay in a child
 *   process (relay-process.ts), or one whose calls pass through gates.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, expect } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/load.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator, EmulatorTimings } from '../../src/emulator/index.js';
import { startService } from '../../src/main.js';
import type { RunningService, StartServiceOptions } from '../../src/main.js';
import type { EngineOptions } from '../../src/runs/runs-deps.js';
import { startFakeGitHub } from '../../src/fakes/github-rest-api.js';
import type {
  FakeCheckRun,
  FakeGitHub,
  FakeGitHubOptions,
} from '../../src/fakes/github-rest-api.js';
import { postGitHub } from './github.js';
import type { PostGitHubOptions } from './github.js';
import { eventCallback, messageEvent, postSlack } from './slack.js';
import type { PostSlackOptions } from './slack.js';
import { startFakeSlackApi } from '../../src/fakes/slack-web-api.js';
import type { FakeSlackApi } from '../../src/fakes/slack-web-api.js';
import { captureLogs, linesWithRepeatedKeys } from './log-capture.js';
import type { LogCapture } from './log-capture.js';
import { GITHUB_APP_ID, GITHUB_PUBLIC_KEY, leakedSecrets, SECRETS } from './secrets.js';

/** The installation of the fixtures' repository (octo-org/widgets). */
export const INSTALLATION_ID = 2311213;

export const QUICK_TIMINGS: EmulatorTimings = {
  queuedMs: 60,
  pendingMs: 60,
  claimedMs: 60,
  runMs: 200,
  slowRunMs: 3_000,
};

export interface RelayOptions {
  /** Extra environment (e.g. SLACK_ALLOWED_USERS). */
  env?: Record<string, string>;
  engineOptions?: Partial<EngineOptions>;
  timings?: Partial<EmulatorTimings>;
  /** Reuse a database file (restart on the same database). */
  databasePath?: string;
  /** Options of the fake Slack Web API (workspaces, OAuth). */
  slackApi?: Parameters<typeof startFakeSlackApi>[0];
  /** Spacing of GitHub writes, as in production (default 0: none). */
  githubMinWriteIntervalMs?: number;
  /** Options of the fake GitHub (e.g. the App's installation permissions). */
  github?: Partial<FakeGitHubOptions>;
  /** The emulator plays a service without the interrupt endpoint. */
  noInterrupt?: boolean;
}

export interface Relay {
  url: string;
  config: Config;
  service: RunningService;
  emulator: Emulator;
  slack: FakeSlackApi;
  github: FakeGitHub;
  logs: LogCapture;
  databasePath: string;
  slackEvents: string;
  githubWebhooks: string;
  postSlack(body: string, options?: PostSlackOptions): Promise<Response>;
  postGitHub(body: string, options: PostGitHubOptions): Promise<Response>;
  /**
   * Alice's reply in #general's `thread`, kept in the fake Slack as Slack keeps it and sent as
   * its `message` event: its ts. Throws unless the relay answers 200.
   */
  replyInSlack(thread: string, text: string): Promise<string>;
  /**
   * The check run event GitHub sends when `login` presses the button `identifier` of `check`
   * (`requested_action`), or, with no `identifier`, re-runs it (`rerequested`).
   */
  checkRunEvent(check: FakeCheckRun, login: string, identifier?: string): Promise<Response>;
  /** Rows per table, read through a second connection. */
  rows(): Record<'inbox' | 'outbox' | 'runs' | 'threads', number>;
  close(): Promise<void>;
}

export interface RelayFakes {
  emulator: Emulator;
  slack: FakeSlackApi;
  github: FakeGitHub;
  close(): Promise<void>;
}

export interface RelayFakesOptions {
  /** The emulator's state timings (default QUICK_TIMINGS). */
  timings?: Partial<EmulatorTimings>;
  /** Options of the fake Slack Web API (workspaces, OAuth). */
  slack?: Parameters<typeof startFakeSlackApi>[0];
  /** Options of the fake GitHub beyond the test App (its permissions, a token). */
  github?: Partial<FakeGitHubOptions>;
  /** The emulator plays a service without the interrupt endpoint. */
  noInterrupt?: boolean;
}

/**
 * What the relay talks to: the emulator (with the test key), the fake Slack Web API and the
 * fake GitHub REST API with the test App installed on octo-org/widgets.
 */
export async function startRelayFakes(options: RelayFakesOptions = {}): Promise<RelayFakes> {
  const emulator = await startEmulator({
    apiKey: SECRETS.agentApiKey,
    timings: options.timings ?? QUICK_TIMINGS,
    tickMs: 10,
    ...(options.noInterrupt ? { interrupt: false } : {}),
  });
  const slack = await startFakeSlackApi(options.slack);
  const github = await startFakeGitHub({
    app: { appId: GITHUB_APP_ID, publicKey: GITHUB_PUBLIC_KEY },
    ...options.github,
  });
  github.setInstallation('octo-org', 'widgets', INSTALLATION_ID);
  return {
    emulator,
    slack,
    github,
    close: async () => {
      await Promise.all([emulator.close(), slack.close(), github.close()]);
    },
  };
}

/**
 * The environment of a relay on any free loopback port, over `databaseUrl` if given, pointed at the
 * given Agent Run Service root (`…/api/v1`), Slack Web API and GitHub REST API, with the test
 * secrets (Slack bot token, GitHub App). `extra` adds or overrides variables.
 */
export function relayEnv(
  targets: { databaseUrl?: string; agentApiUrl: string; slackApiUrl: string; githubApiUrl: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    ...(targets.databaseUrl === undefined ? {} : { DATABASE_URL: targets.databaseUrl }),
    AGENT_API_URL: targets.agentApiUrl,
    AGENT_API_KEY: SECRETS.agentApiKey,
    POLL_INTERVAL_MS: '100',
    SHUTDOWN_TIMEOUT_MS: '2000',
    SLACK_SIGNING_SECRET: SECRETS.slackSigningSecret,
    SLACK_BOT_TOKEN: SECRETS.slackBotToken,
    SLACK_API_URL: targets.slackApiUrl,
    GITHUB_WEBHOOK_SECRET: SECRETS.githubWebhookSecret,
    GITHUB_APP_ID: String(GITHUB_APP_ID),
    GITHUB_PRIVATE_KEY: SECRETS.githubPrivateKey,
    GITHUB_API_URL: targets.githubApiUrl,
    LOG_LEVEL: 'debug',
    ...extra,
  };
}

export interface RelayService {
  service: RunningService;
  config: Config;
  /** The SQLite file. */
  databasePath: string;
  /** Stops the service and deletes the database it made. */
  close(): Promise<void>;
}

/**
 * `startService` as the CLI runs it, from `loadConfig` over `env` on top of: any free port on
 * 127.0.0.1 and a SQLite file in a new temp directory (or `databasePath`, kept).
 */
export async function startRelayService(
  env: Record<string, string>,
  options: StartServiceOptions = {},
  databasePath?: string,
): Promise<RelayService> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-test-'));
  const path = databasePath ?? join(dir, 'relay.db');
  try {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: path, ...env });
    const service = await startService(config, options);
    let closed = false;
    return {
      service,
      config,
      databasePath: path,
      async close() {
        if (closed) return;
        closed = true;
        await service.stop().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

export async function startRelay(options: RelayOptions = {}): Promise<Relay> {
  const logs = captureLogs({ test: 'relay' });
  const fakes = await startRelayFakes({
    timings: { ...QUICK_TIMINGS, ...options.timings },
    ...(options.slackApi ? { slack: options.slackApi } : {}),
    ...(options.github ? { github: options.github } : {}),
    ...(options.noInterrupt ? { noInterrupt: true } : {}),
  });
  const { emulator, slack, github } = fakes;
  const started = await startRelayService(
    relayEnv(
      {
        agentApiUrl: emulator.baseUrl,
        slackApiUrl: slack.url,
        githubApiUrl: github.url,
      },
      options.env,
    ),
    {
      logger: logs.logger,
      engineOptions: {
        workerPollMs: 20,
        inboxRetryDelaysMs: [300, 300, 300, 300],
        ...options.engineOptions,
      },
      platforms: { githubMinWriteIntervalMs: options.githubMinWriteIntervalMs ?? 0 },
    },
    options.databasePath,
  ).catch(async (err: unknown) => {
    await fakes.close();
    throw err;
  });
  const { service, config, databasePath } = started;
  const slackEvents = `${service.url}/slack/events`;
  const githubWebhooks = `${service.url}/github/webhooks`;
  let closed = false;
  return {
    url: service.url,
    config,
    service,
    emulator,
    slack,
    github,
    logs,
    databasePath,
    slackEvents,
    githubWebhooks,
    postSlack: (body, o) => postSlack(slackEvents, body, o),
    postGitHub: (body, o) => postGitHub(githubWebhooks, body, o),
    checkRunEvent: (check, login, identifier) =>
      github.sendCheckRunEvent(check, {
        url: githubWebhooks,
        secret: SECRETS.githubWebhookSecret,
        ...(identifier === undefined
          ? { action: 'rerequested' }
          : { action: 'requested_action', identifier }),
        login,
        installationId: INSTALLATION_ID,
      }),
    async replyInSlack(thread, text) {
      const ts = slack.seedMessage({
        channel: 'CGENERAL1',
        user: 'UALICE01',
        text,
        thread_ts: thread,
      });
      const event = messageEvent({ text, ts, thread_ts: thread });
      const res = await postSlack(slackEvents, eventCallback(event));
      if (res.status !== 200) throw new Error(`a Slack reply was answered ${res.status}`);
      return ts;
    },
    rows: () => countRows(databasePath),
    async close() {
      if (closed) return;
      closed = true;
      await started.close();
      await fakes.close();
    },
  };
}

/**
 * One relay per test (call at module level; returns the starter). After each test its relay
 * is closed, and no log line it wrote may carry a test secret or the same key twice.
 */
export function relayPerTest(
  defaults: RelayOptions = {},
): (options?: RelayOptions) => Promise<Relay> {
  let relay: Relay | undefined;
  afterEach(async () => {
    const r = relay;
    relay = undefined;
    if (!r) return;
    try {
      expect(leakedSecrets(r.logs.text())).toEqual([]);
      expect(linesWithRepeatedKeys(r.logs.text())).toEqual([]);
    } finally {
      await r.close();
    }
  });
  return async (options = {}) => {
    relay = await startRelay({ ...defaults, ...options });
    return relay;
  };
}

export function countRows(path: string): Record<'inbox' | 'outbox' | 'runs' | 'threads', number> {
  const db = new BetterSqlite3(path, { readonly: true, timeout: 5_000 });
  try {
    const count = (table: string) =>
      (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    return {
      inbox: count('inbox'),
      outbox: count('outbox'),
      runs: count('runs'),
      threads: count('threads'),
    };
  } finally {
    db.close();
  }
}
