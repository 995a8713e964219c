/**
 * SQLite housekeeping at a moment the service chooses: `maintain()` checkpoints the
 * write-ahead log into the database file (instead of a commit doing it while requests wait).
 */
import { statSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSqliteHarness, sampleTrigger } from './harness.js';
import type { SqliteHarness } from './harness.js';

let temp: SqliteHarness;
beforeEach(async () => {
  temp = await createSqliteHarness();
});
afterEach(() => temp.cleanup());

it('maintain() moves what the write-ahead log holds into the database file', async () => {
  const store = await temp.open();
  for (let i = 0; i < 300; i++) {
    await store.inbox.add(sampleTrigger({ deliveryId: `Ev-${i}`, text: 'x'.repeat(500) }), i);
  }
  const before = statSync(temp.path).size;
  expect(statSync(`${temp.path}-wal`).size).toBeGreaterThan(0);
  await store.maintain!();
  expect(statSync(temp.path).size).toBeGreaterThan(before);
  expect(await store.inbox.get(300)).toMatchObject({ deliveryId: 'Ev-299' });
});
