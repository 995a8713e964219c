/**
 * SQLite's write-ahead log is checkpointed by a background thread (wal-checkpointer.ts), not
 * inside a commit while requests wait; closing the store leaves no log behind.
 */
import { existsSync, statSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSqliteHarness, sampleTrigger } from './harness.js';
import type { SqliteHarness } from './harness.js';

let temp: SqliteHarness;
beforeEach(async () => {
  temp = await createSqliteHarness();
});
afterEach(() => temp.cleanup());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fill(store: Awaited<ReturnType<SqliteHarness['open']>>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    await store.inbox.add(sampleTrigger({ deliveryId: `Ev-${i}`, text: 'x'.repeat(500) }), i);
  }
}

it('a background thread moves what the write-ahead log holds into the database file', async () => {
  const store = await temp.open({ checkpointIntervalMs: 50 });
  const before = statSync(temp.path).size;
  await fill(store);
  expect(statSync(`${temp.path}-wal`).size).toBeGreaterThan(0);
  const deadline = Date.now() + 5_000;
  while (statSync(temp.path).size <= before && Date.now() < deadline) await sleep(25);
  expect(statSync(temp.path).size).toBeGreaterThan(before);
  // The service's connection goes on as before, and closing leaves no log behind (the
  // thread's connection closed first, so the service's was the last one).
  expect(await store.inbox.get(300)).toMatchObject({ deliveryId: 'Ev-299' });
  await store.close();
  expect(existsSync(`${temp.path}-wal`)).toBe(false);
});

it('without the thread (interval 0) the log stays in the write-ahead file until close', async () => {
  const store = await temp.open({ checkpointIntervalMs: 0 });
  const before = statSync(temp.path).size;
  await fill(store);
  await sleep(300);
  expect(statSync(temp.path).size).toBe(before);
  await store.close();
  expect(statSync(temp.path).size).toBeGreaterThan(before);
});
