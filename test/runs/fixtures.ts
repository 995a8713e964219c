/**
 * Shared wiring for the runs tests: a temp SQLite store, the real agent client against the
 * in-process emulator (fast timings), recording notifiers, and trigger builders shaped like
 * what the Slack and GitHub ingress produce.
 */
import { afterEach, beforeEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentClient, type AgentClient } from '../../src/agent/index.js';
import type { Metrics, Random, RunRecord, Store, TriggerSink } from '../../src/core/ports/index.js';
import type { Trigger } from '../../src/core/trigger.js';
import {
  FAST_TIMINGS,
  startEmulator,
  type Emulator,
  type EmulatorOptions,
} from '../../src/emulator/index.js';
import { createEngine, type Engine, type EngineDeps } from '../../src/runs/engine.js';
import { createInboxSink } from '../../src/service/inbox-sink.js';
import type { EngineOptions } from '../../src/runs/runs-deps.js';
import { openStore } from '../../src/store/index.js';
import { createRecordingLogger } from '../helpers/test-logger.js';
import { waitUntil } from '../helpers/wait-until.js';
import { createRecordingNotifier, type RecordingNotifier } from './recording-notifier.js';
import { PLATFORM_CAPABILITIES } from '../helpers/platform-capabilities.js';

/** The shared recording logger, under the name these tests use. */
export const createTestLogger = createRecordingLogger;

export function createSeqRandom(): Random {
  let n = 0;
  return {
    id: () => `id-${++n}`,
    float: () => 0.5,
  };
}

export function createCountingMetrics(): Metrics & {
  counters: Map<string, number>;
  observations: Map<string, number[]>;
} {
  const counters = new Map<string, number>();
  const observations = new Map<string, number[]>();
  return {
    counters,
    observations,
    inc(name, _labels, value = 1) {
      counters.set(name, (counters.get(name) ?? 0) + value);
    },
    observe(name, seconds) {
      observations.set(name, [...(observations.get(name) ?? []), seconds]);
    },
    set() {},
  };
}

export async function openTempStore(): Promise<{
  store: Store;
  url: string;
  reopen(): Promise<Store>;
  cleanup(): Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-runs-'));
  const url = `sqlite:${join(dir, 'relay.db')}`;
  const opened: Store[] = [await openStore({ databaseUrl: url })];
  return {
    store: opened[0] as Store,
    url,
    async reopen() {
      const store = await openStore({ databaseUrl: url });
      opened.push(store);
      return store;
    },
    async cleanup() {
      for (const s of opened) await s.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let delivery = 0;
export function nextDeliveryId(prefix = 'Ev'): string {
  delivery += 1;
  return `${prefix}${Date.now().toString(36)}${delivery}`;
}

/** An @-mention at the top of a Slack channel (the mention becomes the thread root). */
export function slackMention(overrides: Partial<Trigger> = {}): Trigger {
  const ts =
    overrides.triggerMessage?.id.split(':')[1] ??
    `1700000${String(++delivery).padStart(3, '0')}.000100`;
  const threadKey = overrides.threadKey ?? `slack:T1:C1:${ts}`;
  return {
    platform: 'slack',
    kind: 'mention',
    threadKey,
    actor: { id: 'U1', name: 'alice' },
    text: 'fix the flaky test',
    addressed: true,
    context: {},
    deliveryId: nextDeliveryId(),
    receivedAt: new Date().toISOString(),
    triggerMessage: { threadKey, id: `C1:${ts}` },
    settingsScope: 'slack:T1:C1',
    ...overrides,
  };
}

/**
 * `/agent <text>` typed by `user` in `channel` of workspace T1, as the Slack ingress builds it
 * (to-trigger-interactive.ts): a prompt anchors a thread of its own; a command (status,
 * cancel, list, config, help) is answered to the asker alone.
 */
export function slackSlash(text: string, user = 'U1', channel = 'C1'): Trigger {
  const prompt = !/^(status|cancel|list|config|help)\b/.test(text);
  return {
    platform: 'slack',
    kind: 'slash_command',
    threadKey: `slack:T1:${channel}:`,
    actor: { id: user },
    text,
    addressed: true,
    context: {},
    deliveryId: nextDeliveryId('cmd-'),
    receivedAt: new Date().toISOString(),
    settingsScope: `slack:T1:${channel}`,
    ...(prompt ? { anchorsNewThread: true } : { replyPrivatelyTo: user }),
  };
}

/** A reply in an existing Slack thread (not its root). */
export function slackReply(threadKey: string, overrides: Partial<Trigger> = {}): Trigger {
  const ts = `1700009${String(++delivery).padStart(3, '0')}.000200`;
  return slackMention({
    threadKey,
    kind: 'mention',
    triggerMessage: { threadKey, id: `C1:${ts}` },
    ...overrides,
  });
}

/** A GitHub issue comment that mentions the bot. */
export function githubComment(overrides: Partial<Trigger> = {}): Trigger {
  const threadKey = overrides.threadKey ?? 'github:octo/widgets#7';
  const id = ++delivery;
  return {
    platform: 'github',
    kind: 'issue_comment',
    threadKey,
    actor: { id: 'octocat', association: 'OWNER' },
    text: '@agent-relay fix the typo in the README',
    addressed: false,
    context: {
      issue: {
        repo: 'octo/widgets',
        number: 7,
        title: 'Typo in README',
        body: 'The README says "teh".',
        url: 'https://github.com/octo/widgets/issues/7',
        isPullRequest: false,
      },
      comment: {
        url: `https://github.com/octo/widgets/issues/7#issuecomment-${id}`,
        body: '@agent-relay fix the typo in the README',
      },
    },
    deliveryId: nextDeliveryId('gh-'),
    receivedAt: new Date().toISOString(),
    triggerMessage: { threadKey, id: `issue:${id}` },
    settingsScope: 'github:octo/widgets',
    ...overrides,
  };
}

/**
 * The next create's answer is lost after the service made the run, and so is the client's own
 * search for it: the outcome stays unknown until the inbox retries.
 */
export function loseCreateAnswer(emulator: Emulator): void {
  emulator.faults.dropNext(1, { afterProcessing: true, route: 'POST /agent/runs' });
  emulator.faults.failNext(1, 503, { route: 'GET /agent/runs', retryAfterSeconds: 0 });
}

/**
 * A Slack run the tracker follows, as start-run records it: working, due at `at`, checked
 * every `checkIntervalMs`; `over` sets the rest (its thread, title, state).
 */
export function trackedRecord(
  runId: string,
  at: number,
  over: Partial<RunRecord> & Pick<RunRecord, 'threadKey' | 'title' | 'checkIntervalMs'>,
): RunRecord {
  return {
    runId,
    platform: 'slack',
    requestId: `slack:seed-${runId}`,
    requester: { id: 'U1' },
    state: 'INPROGRESS',
    applied: [],
    nextCheckAt: at,
    tracked: true,
    createdAt: at,
    updatedAt: at,
    ...over,
  };
}

export const TEST_OPTIONS: EngineOptions = {
  botHandle: 'agent-relay',
  commandWord: '/agent',
  pollIntervalMs: 50,
  trackerMode: 'batch',
  maxPromptChars: 8_000,
  inboxConcurrency: 4,
  leaseMs: 30_000,
  workerPollMs: 20,
  maxCheckIntervalMs: 200,
  blockedCheckIntervalMs: 300,
  inboxRetryDelaysMs: [50, 50, 50],
  cancelRetryDelaysMs: [10, 10, 10],
  outboxMaxAttempts: 4,
  drainMs: 2_000,
};

/** An engine plus the inbox sink the service puts in front of it (service/inbox-sink.ts). */
export type TestEngine = Engine & { sink: TriggerSink };

export function withSink(
  engine: Engine,
  store: Store,
  metrics?: ReturnType<typeof createCountingMetrics>,
): TestEngine {
  const sink = createInboxSink({
    store,
    clock: { now: () => Date.now() },
    ...(metrics ? { metrics } : {}),
    onAccepted: () => engine.inbox.wake(),
  });
  return Object.assign(engine, { sink });
}

export interface TestEnv {
  emulator: Emulator;
  agent: AgentClient;
  store: Store;
  slack: RecordingNotifier;
  github: RecordingNotifier;
  logger: ReturnType<typeof createTestLogger>;
  metrics: ReturnType<typeof createCountingMetrics>;
  engine: TestEngine;
  /** Build another engine over the same emulator (e.g. after a restart). */
  makeEngine(store: Store, overrides?: Partial<EngineDeps>): TestEngine;
  reopenStore(): Promise<Store>;
  close(): Promise<void>;
}

export async function startTestEnv(
  input: {
    emulator?: EmulatorOptions;
    options?: Partial<EngineOptions>;
    deps?: Partial<EngineDeps>;
    agentMaxRetries?: number;
  } = {},
): Promise<TestEnv> {
  const emulator = await startEmulator({ timings: FAST_TIMINGS, ...input.emulator });
  const agent = createAgentClient({
    baseUrl: emulator.baseUrl,
    apiKey: emulator.apiKey,
    maxRetries: input.agentMaxRetries ?? 0,
    timeoutMs: 5_000,
    sleep: async () => {},
  });
  const temp = await openTempStore();
  const slack = createRecordingNotifier('slack');
  const github = createRecordingNotifier('github');
  const logger = createTestLogger();
  const metrics = createCountingMetrics();
  const engines: Engine[] = [];
  const makeEngine = (store: Store, overrides: Partial<EngineDeps> = {}): TestEngine => {
    const engine = createEngine({
      store,
      agent,
      notifiers: { slack, github },
      capabilities: PLATFORM_CAPABILITIES,
      clock: { now: () => Date.now() },
      random: createSeqRandom(),
      logger,
      metrics,
      options: { ...TEST_OPTIONS, ...input.options },
      sleep: async () => {},
      ...input.deps,
      ...overrides,
    });
    engines.push(engine);
    return withSink(engine, store, metrics);
  };
  const engine = makeEngine(temp.store);
  return {
    emulator,
    agent,
    store: temp.store,
    slack,
    github,
    logger,
    metrics,
    engine,
    makeEngine,
    reopenStore: () => temp.reopen(),
    async close() {
      for (const e of engines) await e.stop().catch(() => undefined);
      await emulator.close();
      await temp.cleanup();
    },
  };
}

/**
 * At a test file's top level (or in a `describe`): a fresh env from `startTestEnv(input)` before
 * each test, closed after it. The returned object stands for the current test's env.
 */
export function testEnvPerTest(input?: Parameters<typeof startTestEnv>[0]): TestEnv {
  let current: TestEnv | undefined;
  beforeEach(async () => {
    current = await startTestEnv(input);
  });
  afterEach(async () => {
    const env = current;
    current = undefined;
    await env?.close();
  });
  return new Proxy({} as TestEnv, {
    get(_target, key) {
      if (current === undefined) throw new Error('the test env exists only inside a test');
      return Reflect.get(current, key) as unknown;
    },
  });
}

/** Accept a trigger through the sink and handle every due inbox item once. */
export async function handle(env: { engine: TestEngine }, trigger: Trigger): Promise<void> {
  await env.engine.sink.accept(trigger);
  await env.engine.inbox.runOnce();
}

/** Deliver every due notification (repeatedly, since the outbox takes one per thread). */
export async function flushOutbox(env: Pick<TestEnv, 'engine'>, rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i += 1) {
    if ((await env.engine.outbox.runOnce()) === 0) return;
  }
}

/** The titles of the runs the emulator created, sorted (runs created side by side). */
export function createdTitles(env: Pick<TestEnv, 'emulator'>): string[] {
  return env.emulator.runs
    .all()
    .map((r) => r.title)
    .sort();
}

/**
 * Waits until every run the emulator created is recorded in `store` with its status message
 * (each "Starting…" became its run's card). `beforeLook` runs before each look (a flush of an
 * engine that is not running).
 */
export async function awaitEveryRunsCard(
  env: Pick<TestEnv, 'emulator'>,
  store: Store,
  beforeLook: () => Promise<void> = async () => {},
): Promise<void> {
  await waitUntil(
    async () => {
      await beforeLook();
      const records = await Promise.all(
        env.emulator.runs.all().map((r) => store.runs.get(r.run_id)),
      );
      return records.every((r) => r?.statusMessage !== undefined);
    },
    { message: 'every run recorded with its status message' },
  );
}
