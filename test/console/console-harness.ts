/**
 * Starting the relay with its console for tests: the embedded emulator, a SQLite file, the
 * fake Slack Web API (for delivering notifications) and the fake sign-in providers.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningService } from '../../src/main.js';
import { startFakeIdentityProviders } from '../../src/fakes/identity-providers.js';
import type { FakeIdentityProviders } from '../../src/fakes/identity-providers.js';
import { startFakeSlackApi } from '../../src/fakes/slack-web-api.js';
import type { FakeSlackApi } from '../../src/fakes/slack-web-api.js';
import type { Clock, RunRecord } from '../../src/core/ports/index.js';
import { startRelayService } from '../helpers/relay.js';
import { TEST_SIGNING_SECRET } from '../helpers/slack.js';
import { createRecordingLogger } from '../helpers/test-logger.js';
import { waitUntil } from '../helpers/wait-until.js';
import type { RecordingLogger } from '../helpers/test-logger.js';

export const CLIENTS = {
  slack: { clientId: '111.222', secret: 'slack-client-secret-for-tests' },
  github: { clientId: 'Iv1.testclient', secret: 'github-client-secret-for-tests' },
};

export interface ConsoleHarness {
  service: RunningService;
  idp: FakeIdentityProviders;
  slack: FakeSlackApi;
  /** Everything the service logged. */
  logger: RecordingLogger;
  /** GET a path of the service (redirects not followed), with a session cookie if given. */
  get(path: string, cookie?: string, headers?: Record<string, string>): Promise<Response>;
  /** POST a form (URL-encoded, or its fields) to a path of the service, as `get` does. */
  post(
    path: string,
    form: string | Record<string, string>,
    cookie?: string,
    headers?: Record<string, string>,
  ): Promise<Response>;
  close(): Promise<void>;
}

export async function startConsoleHarness(
  env: Record<string, string> = {},
  options: { clock?: Clock } = {},
): Promise<ConsoleHarness> {
  const idp = await startFakeIdentityProviders(CLIENTS);
  const slack = await startFakeSlackApi({ token: 'xoxb-console-test' });
  const logger = createRecordingLogger();
  const { service, close } = await startRelayService(
    {
      EMULATOR_FAST: '1',
      POLL_INTERVAL_MS: '100',
      SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
      SLACK_BOT_TOKEN: 'xoxb-console-test',
      SLACK_API_URL: slack.url,
      CONSOLE_SLACK_TEAMS: 'T0000001',
      // Named: an operator (the workspace's other members are viewers).
      CONSOLE_SLACK_USERS: 'U0OLIVIA',
      CONSOLE_GITHUB_ORGS: 'acme',
      CONSOLE_GITHUB_USERS: 'trusted-login',
      SLACK_CLIENT_ID: CLIENTS.slack.clientId,
      SLACK_CLIENT_SECRET: CLIENTS.slack.secret,
      GITHUB_CLIENT_ID: CLIENTS.github.clientId,
      GITHUB_CLIENT_SECRET: CLIENTS.github.secret,
      CONSOLE_SLACK_URL: idp.url,
      CONSOLE_GITHUB_URL: idp.url,
      GITHUB_API_URL: idp.url,
      ...env,
    },
    {
      logger,
      announce: false,
      ...(options.clock ? { clock: options.clock } : {}),
      platforms: { slackBotUserId: 'UBOT0001', slackTeamId: 'T0000001' },
    },
  );
  return {
    service,
    idp,
    slack,
    logger,
    get: (path, cookie, headers = {}) =>
      fetch(`${service.url}${path}`, {
        redirect: 'manual',
        headers: { ...(cookie ? { cookie } : {}), ...headers },
      }),
    post: (path, form, cookie, headers = {}) =>
      fetch(`${service.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(cookie ? { cookie } : {}),
          ...headers,
        },
        body: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
      }),
    async close() {
      await close();
      await slack.close();
      await idp.close();
    },
  };
}

/**
 * At a test file's top level: one console harness for all the file's tests, started before
 * them and closed after them. The returned object reads that harness.
 */
export function consolePerFile(): ConsoleHarness {
  let current: ConsoleHarness | undefined;
  beforeAll(async () => {
    current = await startConsoleHarness();
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as ConsoleHarness, {
    get(_target, key) {
      if (current === undefined) throw new Error('the console runs only while the file runs');
      return Reflect.get(current, key) as unknown;
    },
  });
}

/**
 * A notification to `threadKey` that Slack refuses (`channel_not_found`), parked in the
 * outbox: its id, once the outbox has parked it.
 */
export async function parkNotification(
  h: ConsoleHarness,
  threadKey: string,
  text: string,
): Promise<number> {
  const store = h.service.store;
  h.slack.failNext('chat.postMessage', { error: 'channel_not_found' });
  const id = await store.outbox.enqueue(
    { kind: 'post', destination: { threadKey }, message: { type: 'notice', tone: 'info', text } },
    Date.now(),
  );
  h.service.engine.outbox.wake();
  await waitUntil(
    async () => (await store.outboxQueue.list({ status: 'parked' })).some((n) => n.id === id),
    { timeoutMs: 15_000 },
  );
  return id;
}

/** A run record as the start-run flow writes it (for listing and filtering). */
export function runRecord(
  over: Partial<RunRecord> & { runId: string; threadKey: string },
): RunRecord {
  const now = Date.now();
  return {
    platform: over.threadKey.startsWith('github:') ? 'github' : 'slack',
    requestId: `req-${over.runId}`,
    requester: { id: 'U0ALICE', name: 'Alice' },
    title: `Run ${over.runId}`,
    state: 'INPROGRESS',
    applied: [],
    nextCheckAt: now + 3_600_000,
    checkIntervalMs: 3_600_000,
    tracked: false,
    createdAt: now,
    updatedAt: now,
    ...over,
  };
}

export function cookieOf(res: Response, name = 'relay_console'): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    if (pair?.startsWith(`${name}=`) && pair.length > name.length + 1) return pair;
  }
  return undefined;
}

export function csrfOf(page: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(page);
  if (!m?.[1]) throw new Error('no CSRF token on the page');
  return m[1];
}

/** Sign in through the one-time local admin link; the session cookie. */
export async function signInLocally(service: RunningService): Promise<string> {
  const res = await fetch(service.console!.adminLink!, { redirect: 'manual' });
  const cookie = cookieOf(res);
  if (res.status !== 303 || !cookie) throw new Error(`admin link answered ${res.status}`);
  return cookie;
}

/** A console harness of its own (`env` over the usual) for the length of `fn`, closed after it. */
export async function withOtherConsole<T>(
  env: Record<string, string>,
  fn: (other: ConsoleHarness) => Promise<T>,
  options: { clock?: Clock } = {},
): Promise<T> {
  const other = await startConsoleHarness(env, options);
  try {
    return await fn(other);
  } finally {
    await other.close();
  }
}

/**
 * Follow a sign-in with `provider` through the fake provider (asking to land on `next`, when
 * given): our redirect to it, its redirect back, then our callback's answer.
 */
export async function signInThrough(
  h: ConsoleHarness,
  provider: 'slack' | 'github',
  next?: string,
): Promise<Response> {
  const start = await h.get(`/console/signin/${provider}${next ? `?next=${next}` : ''}`);
  expect(start.status).toBe(303);
  const stateCookie = cookieOf(start, 'relay_console_signin')!;
  const atProvider = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get('location')!);
  return h.get(back.pathname + back.search, stateCookie);
}
