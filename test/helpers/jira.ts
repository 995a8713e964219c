/**
 * A relay with Jira on (and nothing else), as production wires it (`startService` from a
 * config `loadConfig` parsed), on loopback and a temp SQLite file, pointed at the emulator and
 * the fake Jira site, which sends it signed webhooks.
 */
import type { Emulator, EmulatorTimings } from '../../src/emulator/index.js';
import {
  FAKE_JIRA_EMAIL,
  FAKE_JIRA_TOKEN,
  FAKE_JIRA_WEBHOOK_SECRET,
  startFakeJira,
  type FakeJira,
  type FakeJiraComment,
} from '../../src/fakes/jira-rest-api.js';
import { plainText, type AdfDoc } from '../../src/jira/index.js';
import { captureLogs } from './log-capture.js';
import { currentPerTest } from './world-per-test.js';
import type { LogCapture } from './log-capture.js';
import { startRelayService } from './relay.js';
import type { RelayService } from './relay.js';
import { WORLD_ENGINE_OPTIONS, pollFor, startWorldEmulator, worldEnv } from './platform-world.js';

export interface JiraWorld {
  relay: RelayService;
  jira: FakeJira;
  emulator: Emulator;
  logs: LogCapture;
  webhookUrl: string;
  /** Send a webhook body to the relay: signed, unless told otherwise. */
  send(
    body: unknown,
    options?: Parameters<FakeJira['webhooks']['send']>[1],
  ): Promise<{ status: number; answer: Record<string, unknown> }>;
  /** Send, signed, the webhook of a comment `author` wrote on the issue. */
  comment(
    ...args: Parameters<FakeJira['webhooks']['commentCreated']>
  ): Promise<{ status: number; answer: Record<string, unknown> }>;
  /** Wait until one of the relay's comments on the issue says what `accept` likes. */
  waitForComment(
    issueKey: string,
    accept: (text: string, c: FakeJiraComment) => boolean,
    timeoutMs?: number,
  ): Promise<FakeJiraComment>;
  close(): Promise<void>;
}

/** A comment's words, whatever its body (ADF of the relay's, or a person's wiki text). */
export function commentText(c: FakeJiraComment): string {
  return typeof c.body === 'string' ? c.body : plainText(c.body as AdfDoc);
}

export async function startJiraWorld(
  options: {
    env?: Record<string, string>;
    timings?: Partial<EmulatorTimings>;
    /** Jira answers the start-up's `myself` with this status. */
    failMyself?: number;
    /** What the site's `serverInfo` says it is. Default `Cloud`. */
    deploymentType?: string;
  } = {},
): Promise<JiraWorld> {
  const logs = captureLogs({ test: 'jira' });
  const emulator = await startWorldEmulator(options.timings);
  const jira = await startFakeJira(
    options.deploymentType === undefined ? {} : { deploymentType: options.deploymentType },
  );
  if (options.failMyself !== undefined)
    jira.failNext({ path: /\/myself$/, status: options.failMyself });
  const relay = await startRelayService(
    {
      ...worldEnv(emulator),
      JIRA_BASE_URL: jira.url,
      JIRA_EMAIL: FAKE_JIRA_EMAIL,
      JIRA_API_TOKEN: FAKE_JIRA_TOKEN,
      JIRA_WEBHOOK_SECRET: FAKE_JIRA_WEBHOOK_SECRET,
      JIRA_ALLOWED_PROJECTS: 'PROJ',
      ...options.env,
    },
    {
      logger: logs.logger,
      engineOptions: WORLD_ENGINE_OPTIONS,
    },
  ).catch(async (err: unknown) => {
    await Promise.all([emulator.close(), jira.close()]);
    throw err;
  });
  const webhookUrl = `${relay.service.url}/jira/webhooks`;
  const world: JiraWorld = {
    relay,
    jira,
    emulator,
    logs,
    webhookUrl,
    async send(body, sendOptions) {
      const res = await jira.webhooks.send(body, sendOptions, webhookUrl);
      return { status: res.status, answer: (await res.json()) as Record<string, unknown> };
    },
    comment(issue, author, text) {
      return world.send(jira.webhooks.commentCreated(issue, author, text));
    },
    waitForComment: (issueKey, accept, timeoutMs = 10_000) =>
      pollFor(
        () => jira.model.relayComments(issueKey).find((c) => accept(commentText(c), c)),
        'comment',
        () => jira.model.relayComments(issueKey).map(commentText),
        timeoutMs,
      ),
    async close() {
      await relay.close();
      await Promise.all([emulator.close(), jira.close()]);
    },
  };
  return world;
}

/** At a file's top level: a fake Jira site new for each test, closed after it. */
export function fakeJiraPerTest(): FakeJira {
  return currentPerTest(
    'the fake Jira',
    () => startFakeJira(),
    (jira) => jira.close(),
  );
}
