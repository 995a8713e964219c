/**
 * A relay with Linear on (and nothing else), as production wires it (`startService` from a
 * config `loadConfig` parsed), on loopback and a temp SQLite file, pointed at the emulator and
 * the fake Linear GraphQL API, which sends it signed webhooks.
 */
import type { Clock } from '../../src/core/ports/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { startFakeLinear } from '../../src/fakes/linear-graphql-api.js';
import type {
  FakeLinear,
  FakeLinearActivity,
  FakeLinearSession,
} from '../../src/fakes/linear-graphql-api.js';
import { captureLogs } from './log-capture.js';
import type { LogCapture } from './log-capture.js';
import { startRelayService } from './relay.js';
import type { RelayService } from './relay.js';
import { WORLD_ENGINE_OPTIONS, pollFor, startWorldEmulator, worldEnv } from './platform-world.js';

export const LINEAR_WEBHOOK_SECRET = 'linear-webhook-secret-dummy-0a1b2c';
/** 32 bytes of dummy key, base64. */
export const LINEAR_TOKEN_KEY = Buffer.alloc(32, 7).toString('base64');

export interface LinearWorld {
  relay: RelayService;
  linear: FakeLinear;
  emulator: Emulator;
  logs: LogCapture;
  webhookUrl: string;
  /** Wait until the session has an activity `accept` likes; its activities then. */
  waitForActivity(
    sessionId: string,
    accept: (a: FakeLinearActivity) => boolean,
    timeoutMs?: number,
  ): Promise<FakeLinearActivity>;
  /**
   * A person's prompt in the session (`options` as the fake's `prompt`), then the first
   * activity after it that `accept` likes (default: a response).
   */
  answerTo(
    sessionId: string,
    body: string,
    options?: Parameters<FakeLinear['prompt']>[2],
    accept?: (a: FakeLinearActivity) => boolean,
  ): Promise<FakeLinearActivity>;
  /** A session opened on an issue titled `title`, once the relay answered it (a response). */
  answeredSession(title: string): Promise<FakeLinearSession>;
  /**
   * `config <words>` from the fake's default person (Ada, an admin of the workspace) in a
   * session of its own, opened for it and answered first: the answer to the `config`.
   */
  configureTeam(words: string): Promise<FakeLinearActivity>;
  close(): Promise<void>;
}

export async function startLinearWorld(
  options: {
    env?: Record<string, string>;
    workspace?: number;
    keepAliveMs?: number;
    /** Least time between two progress reads of a run (default: the engine's). */
    progressIntervalMs?: number;
    /** OAuth install (no LINEAR_ACCESS_TOKEN): these organizations may install. */
    oauthOrganizations?: string[];
    /** The relay's clock (default the system's). */
    clock?: Clock;
    /** The fake Linear's clock, which its OAuth tokens expire by (default `clock`). */
    linearClock?: Clock;
  } = {},
): Promise<LinearWorld> {
  const logs = captureLogs({ test: 'linear' });
  const emulator = await startWorldEmulator();
  const linearClock = options.linearClock ?? options.clock;
  const linear = await startFakeLinear(linearClock ? { clock: () => linearClock.now() } : {});
  const ws = linear.workspaces[options.workspace ?? 0]!;
  const relay = await startRelayService(
    {
      ...worldEnv(emulator),
      LINEAR_WEBHOOK_SECRET,
      ...(options.oauthOrganizations
        ? {
            LINEAR_CLIENT_ID: linear.oauthClient.id,
            LINEAR_CLIENT_SECRET: linear.oauthClient.secret,
            LINEAR_TOKEN_ENCRYPTION_KEY: LINEAR_TOKEN_KEY,
            LINEAR_ALLOWED_ORGANIZATIONS: options.oauthOrganizations.join(','),
          }
        : { LINEAR_ACCESS_TOKEN: ws.token }),
      LINEAR_API_URL: linear.url,
      ...options.env,
    },
    {
      logger: logs.logger,
      ...(options.clock ? { clock: options.clock } : {}),
      engineOptions: {
        ...WORLD_ENGINE_OPTIONS,
        ...(options.progressIntervalMs === undefined
          ? {}
          : { progressIntervalMs: options.progressIntervalMs }),
      },
      platforms: {
        linearAuthorizationUrl: linear.authorizeUrl,
        ...(options.keepAliveMs === undefined ? {} : { linearKeepAliveMs: options.keepAliveMs }),
      },
    },
  ).catch(async (err: unknown) => {
    await Promise.all([emulator.close(), linear.close()]);
    throw err;
  });
  const webhookUrl = `${relay.service.url}/linear/webhooks`;
  linear.setWebhook(webhookUrl, LINEAR_WEBHOOK_SECRET);
  const world: LinearWorld = {
    relay,
    linear,
    emulator,
    logs,
    webhookUrl,
    waitForActivity: (sessionId, accept, timeoutMs = 10_000) =>
      pollFor(
        () => linear.activitiesOf(sessionId).find(accept),
        'activity',
        () =>
          linear.activitiesOf(sessionId).map((a) => `${a.content.type}: ${a.content.body ?? ''}`),
        timeoutMs,
        '\n',
      ),
    async answerTo(sessionId, body, promptOptions, accept = (a) => a.content.type === 'response') {
      const before = linear.activitiesOf(sessionId).length;
      await linear.prompt(sessionId, body, promptOptions);
      return world.waitForActivity(
        sessionId,
        (a) => linear.activitiesOf(sessionId).indexOf(a) >= before && accept(a),
      );
    },
    async answeredSession(title) {
      const { session } = await linear.openSession({ title });
      await world.waitForActivity(session.id, (a) => a.content.type === 'response');
      return session;
    },
    async configureTeam(words) {
      const session = await world.answeredSession('settings');
      return world.answerTo(session.id, `config ${words}`);
    },
    async close() {
      await relay.close();
      await Promise.all([emulator.close(), linear.close()]);
    },
  };
  return world;
}

/** Walk the browser's way: /linear/install -> Linear's consent page -> our redirect. */
export async function installLinear(
  w: LinearWorld,
  workspace: number,
  options: { actor?: 'app' | 'user'; cookie?: string } = {},
): Promise<Response & { back: string; cookie: string }> {
  w.linear.authorizeAs(workspace, options.actor);
  const start = await fetch(`${w.relay.service.url}/linear/install`, { redirect: 'manual' });
  if (start.status !== 302) throw new Error(`/linear/install answered ${start.status}`);
  // The install's state cookie, carried back as the browser would (`cookie`: another's).
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0]!;
  const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  if (consent.status !== 302) throw new Error(`the consent page answered ${consent.status}`);
  const back = consent.headers.get('location')!;
  const headers = { cookie: options.cookie ?? cookie };
  return Object.assign(await fetch(back, { redirect: 'manual', headers }), { back, cookie });
}
