/**
 * Slack end to end, in one process on loopback: the real Bolt receiver behind a node:http
 * server, the runs engine over a temp SQLite store, the real agent client against the
 * in-process emulator, and the Slack notifier against the fake Slack Web API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { serveOnLoopback } from '../helpers/loopback-server.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentClient } from '../../src/agent/index.js';
import type { Random, Store } from '../../src/core/ports/index.js';
import { systemClock } from '../../src/core/ports/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Engine } from '../../src/runs/engine.js';
import { createEngine } from '../../src/runs/engine.js';
import { createInboxSink } from '../../src/service/inbox-sink.js';
import type { SlackIngress } from '../../src/slack/ingress/slack-ingress.js';
import { createSlackIngress } from '../../src/slack/ingress/slack-ingress.js';
import { createSlackNotifier } from '../../src/slack/notify/notifier.js';
import { answerPlace } from '../../src/slack/ingress/access.js';
import { peopleOf } from './ingress/harness.js';
import { openStore } from '../../src/store/index.js';
import {
  TEST_SIGNING_SECRET,
  appMentionEvent,
  eventCallback,
  messageEvent,
  postSlack,
} from '../helpers/slack.js';
import type { FakeMessage, FakeSlackApi } from '../../src/fakes/slack-web-api.js';
import { startFakeSlackApi } from '../../src/fakes/slack-web-api.js';
import type { RecordingLogger } from '../helpers/test-logger.js';
import { createRecordingLogger } from '../helpers/test-logger.js';
import type { Gate } from '../reliability/gate-proxy.js';
import { startGate } from '../reliability/gate-proxy.js';
import { PLATFORM_CAPABILITIES } from '../helpers/platform-capabilities.js';

export interface Flow {
  url: string;
  api: FakeSlackApi;
  emulator: Emulator;
  store: Store;
  engine: Engine;
  ingress: SlackIngress;
  logger: RecordingLogger;
  /** With `gateService`: the proxy between the relay and the emulator (hold the service). */
  gate?: Gate;
  post(body: string, headers?: Record<string, string>): Promise<Response>;
  /**
   * Alice's message in #general (in `thread` when given), kept in the fake as Slack keeps it
   * and sent as the app_mention Slack sends; its ts. Throws unless it is answered 200.
   */
  mention(text: string, thread?: string): Promise<string>;
  /** Alice's plain reply in `thread`, kept and sent as `mention` does; its ts. */
  reply(thread: string, text: string): Promise<string>;
  /** Bot messages posted in a channel (top level and threads), oldest first. */
  botMessages(channel?: string): FakeMessage[];
  close(): Promise<void>;
}

export interface FlowOptions {
  allowedUsers?: string[];
  /** Put a gate (test/reliability/gate-proxy.ts) between the relay and the emulator. */
  gateService?: boolean;
  /** Emulator state timings (ms); the defaults show every state to a 25 ms tracker. */
  timings?: {
    queuedMs?: number;
    pendingMs?: number;
    claimedMs?: number;
    runMs?: number;
    slowRunMs?: number;
  };
}

function seqRandom(): Random {
  let n = 0;
  return { id: () => `req-${++n}`, float: () => 0.5 };
}

export async function startFlow(options: FlowOptions = {}): Promise<Flow> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-slack-flow-'));
  const logger = createRecordingLogger();
  const emulator = await startEmulator({
    timings: {
      queuedMs: 100,
      pendingMs: 60,
      claimedMs: 60,
      runMs: 250,
      slowRunMs: 5_000,
      ...options.timings,
    },
    tickMs: 10,
  });
  const store = await openStore({ databaseUrl: `sqlite:${join(dir, 'relay.db')}` });
  const api = await startFakeSlackApi();
  const gate = options.gateService ? await startGate(emulator.baseUrl) : undefined;
  const agent = createAgentClient({
    baseUrl: gate?.url ?? emulator.baseUrl,
    apiKey: emulator.apiKey,
    maxRetries: 0,
    timeoutMs: 5_000,
  });
  const notifier = createSlackNotifier({ botToken: 'xoxb-flow', apiUrl: api.url, logger });
  // Who a person is, asked by the runs after the acknowledgement, as the platform wires it.
  const people = peopleOf(api.url, logger);
  const engine = createEngine({
    repoAccess: { checkPlace: (q) => answerPlace(people, q) },
    store,
    agent,
    notifiers: { slack: notifier },
    capabilities: PLATFORM_CAPABILITIES,
    clock: systemClock,
    random: seqRandom(),
    logger,
    options: {
      botHandle: 'agent-relay',
      commandWord: '/agent',
      pollIntervalMs: 25,
      trackerMode: 'batch',
      maxPromptChars: 20_000,
      workerPollMs: 10,
      maxCheckIntervalMs: 100,
      blockedCheckIntervalMs: 100,
      cancelRetryDelaysMs: [50, 100, 200],
      inboxRetryDelaysMs: [100, 200],
      drainMs: 2_000,
    },
  });
  const ingress = createSlackIngress({
    signingSecret: TEST_SIGNING_SECRET,
    botToken: 'xoxb-flow',
    apiUrl: api.url,
    commandName: '/agent',
    allowedChannels: [],
    allowedUsers: options.allowedUsers ?? [],
    sink: createInboxSink({ store, clock: systemClock, onAccepted: () => engine.inbox.wake() }),
    logger,
    replyInThreadWithoutMention: true,
    people,
  });
  const server = await serveOnLoopback((req, res) => void ingress.handle(req, res));
  const url = `${server.url}/slack/events`;
  await ingress.start();
  engine.start();

  const post = (body: string, headers?: Record<string, string>) =>
    postSlack(url, body, headers === undefined ? {} : { headers });
  const send = async (text: string, thread: string | undefined, kind: 'mention' | 'reply') => {
    const where = thread === undefined ? {} : { thread_ts: thread };
    const ts = api.seedMessage({ channel: 'CGENERAL1', user: 'UALICE01', text, ...where });
    const event = kind === 'mention' ? appMentionEvent : messageEvent;
    const res = await post(eventCallback(event({ text, ts, ...where })));
    if (res.status !== 200) throw new Error(`Slack's ${kind} was answered ${res.status}`);
    return ts;
  };

  return {
    url,
    api,
    emulator,
    store,
    engine,
    ingress,
    logger,
    ...(gate ? { gate } : {}),
    post,
    mention: (text, thread) => send(text, thread, 'mention'),
    reply: (thread, text) => send(text, thread, 'reply'),
    botMessages: (channel = 'CGENERAL1') =>
      api.messages.filter((m) => m.channel === channel && m.bot_id === api.identity.bot_id),
    async close() {
      await engine.stop();
      await ingress.stop();
      await server.close();
      await api.close();
      await gate?.close();
      await emulator.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
