/**
 * Retention (src/runs/workers/retention.ts) against a real SQLite store: finished triggers and
 * notifications, and records of "Starting…" messages, older than the window are deleted in
 * batches.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ConsoleSessionRecord } from '../../../src/core/ports/index.js';
import type { OpenedStore } from '../../../src/store/index.js';
import { createRetention } from '../../../src/runs/workers/retention.js';
import type { RetentionDeps } from '../../../src/runs/workers/retention.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';
import {
  createSqliteHarness,
  samplePayload,
  sampleRun,
  sampleTrigger,
} from '../../store/harness.js';
import type { SqliteHarness } from '../../store/harness.js';

const DAY = 86_400_000;
let temp: SqliteHarness;
let store: OpenedStore;
let now = 0;
const clock = { now: () => now };
/** A retention worker on this test's store and clock, logging to a recording logger. */
const retentionWith = (options: Omit<RetentionDeps, 'store' | 'clock' | 'logger'>) =>
  createRetention({ store, clock, logger: createRecordingLogger(), ...options });

beforeEach(async () => {
  temp = await createSqliteHarness();
  store = await temp.open({ checkpointIntervalMs: 0 });
  now = 0;
});
afterEach(() => temp.cleanup());

/** `n` triggers and `n` notifications, finished at `at`. */
async function finished(n: number, at: number, tag: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    const key = `slack:T1:C1:${tag}${i}.1`;
    await store.inbox.add(sampleTrigger({ deliveryId: `${tag}-${i}`, threadKey: key }), at);
    await store.outbox.enqueue(samplePayload(key, tag), at);
    await store.startMessages.open(`slack:${tag}-${i}`, key, at);
  }
  for (const item of await store.inboxQueue.claim(at, 60_000, n)) {
    await store.inbox.complete(item.id, at);
  }
  for (const item of await store.outboxQueue.claim(at, 60_000, n)) {
    await store.outboxQueue.delivered(item.id, at);
  }
}

it('deletes what finished before the window, in batches, and logs the count', async () => {
  await finished(5, 0, 'old');
  await finished(2, 6 * DAY, 'recent');
  const logger = createRecordingLogger();
  const retention = createRetention({ store, clock, logger, keepMs: 7 * DAY, batch: 2 });
  now = 8 * DAY;
  expect(await retention.runOnce()).toEqual({
    inbox: 5,
    outbox: 5,
    startMessages: 5,
    runs: 0,
    threads: 0,
    blockedDescendants: 0,
    consoleSessions: 0,
  });
  expect(await retention.runOnce()).toEqual({
    inbox: 0,
    outbox: 0,
    startMessages: 0,
    runs: 0,
    threads: 0,
    blockedDescendants: 0,
    consoleSessions: 0,
  });
  expect(await store.startMessages.get('slack:old-0')).toBeUndefined();
  expect(await store.startMessages.get('slack:recent-0')).toBeDefined();
  expect((await store.outboxQueue.list()).map((i) => i.threadKey)).toEqual([
    'slack:T1:C1:recent0.1',
    'slack:T1:C1:recent1.1',
  ]);
  expect(logger.lines.filter((l) => l.msg?.startsWith('deleted finished'))).toHaveLength(1);
});

it('runs on its timer until stopped', async () => {
  await finished(2, 0, 'old');
  now = 2 * DAY;
  const retention = retentionWith({ keepMs: DAY, intervalMs: 20 });
  retention.start();
  const deadline = Date.now() + 5_000;
  while ((await store.outboxQueue.list()).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await retention.stop();
  expect(await store.outboxQueue.list()).toEqual([]);
  // Stopped: what finishes later stays.
  await finished(1, 2 * DAY, 'late');
  now = 10 * DAY;
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await store.outboxQueue.list()).toHaveLength(1);
});

it('deletes finished runs and emptied threads after their window; never a tracked run or a thread with work waiting', async () => {
  const run = (id: string, key: string, tracked: boolean, at: number) =>
    store.runs.insert(
      sampleRun({
        runId: id,
        requestId: `q-${id}`,
        threadKey: key,
        tracked,
        createdAt: at,
        updatedAt: at,
      }),
    );
  const thread = (key: string, at: number) =>
    store.threads.upsert({ threadKey: key, platform: 'slack' }, at);
  await thread('slack:T1:C1:old.1', 0);
  await run('old', 'slack:T1:C1:old.1', false, 0);
  await thread('slack:T1:C1:live.1', 0);
  await run('live', 'slack:T1:C1:live.1', true, 0);
  await thread('slack:T1:C1:waiting.1', 0);
  await store.inbox.add(sampleTrigger({ deliveryId: 'w', threadKey: 'slack:T1:C1:waiting.1' }), 0);
  await thread('slack:T1:C1:recent.1', 80 * DAY);
  await run('recent', 'slack:T1:C1:recent.1', false, 80 * DAY);
  const retention = retentionWith({ runsKeepMs: 90 * DAY });
  now = 100 * DAY;
  expect(await retention.runOnce()).toMatchObject({ runs: 1, threads: 1 });
  expect(await store.runs.get('old')).toBeUndefined();
  expect(await store.runs.get('live')).toBeDefined();
  expect(await store.runs.get('recent')).toBeDefined();
  expect(await store.threads.get('slack:T1:C1:old.1')).toBeUndefined();
  for (const kept of ['live', 'waiting', 'recent']) {
    expect(await store.threads.get(`slack:T1:C1:${kept}.1`), kept).toBeDefined();
  }
});

it('deletes the console sessions that expired, and keeps the ones still good', async () => {
  const sessions = store.consoleSessions!;
  const session = (id: string, expiresAt: number): ConsoleSessionRecord => ({
    id: id.repeat(64),
    operatorId: 'local:admin',
    operatorName: 'local admin',
    via: 'local',
    role: 'operator',
    grounds: 'local',
    csrf: 'csrf',
    createdAt: 0,
    expiresAt,
  });
  await sessions.create(session('a', DAY));
  await sessions.create(session('b', 3 * DAY));
  const retention = retentionWith({ keepMs: 7 * DAY });
  now = 2 * DAY;
  expect(await retention.runOnce()).toMatchObject({ consoleSessions: 1 });
  expect(await sessions.get('a'.repeat(64), 0)).toBeUndefined();
  expect(await sessions.get('b'.repeat(64), 0)).toBeDefined();
});
