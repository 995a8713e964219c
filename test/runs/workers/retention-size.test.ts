/**
 * A database that has served 1,000,000 triggers (a thousand a day for a thousand days: each
 * with its inbox row, notification, "Starting…" record, thread, run and state history) keeps,
 * after retention with the default settings, only the last RETENTION_DAYS of queue rows and
 * the last RUN_RETENTION_DAYS of runs and threads: within the size docs/reliability.md states.
 * Rows are seeded in SQL (a recursive CTE), retention runs as the service runs it.
 */
import { statSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { createRetention } from '../../../src/runs/workers/retention.js';
import type { OpenedStore } from '../../../src/store/index.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';
import { createSqliteHarness } from '../../store/harness.js';
import type { SqliteHarness } from '../../store/harness.js';

const DAY = 86_400_000;
const TRIGGERS = 1_000_000;
const PER_DAY = 1_000;
const NOW = 2_000 * DAY;
/** The bound docs/reliability.md states for this load (live pages, not the file). */
const STATED_MAX_BYTES = 100 * 1024 * 1024;

let temp: SqliteHarness;
let store: OpenedStore;
beforeAll(async () => {
  temp = await createSqliteHarness();
  store = await temp.open({ checkpointIntervalMs: 0 });
});
afterAll(() => temp.cleanup());

function seed(path: string): void {
  const db = new BetterSqlite3(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    // Trigger i arrived at NOW - (TRIGGERS - i) days/PER_DAY, and finished at once.
    db.exec(`
      create temp table seq as
        with recursive n(i) as (select 1 union all select i + 1 from n where i < ${TRIGGERS})
        select i, ${NOW} - (${TRIGGERS} - i) * ${DAY / PER_DAY} as at from n;
      begin;
      insert into threads (thread_key, platform, current_run_id, started_by, created_at, updated_at)
        select 'slack:T1:C1:' || i || '.1', 'slack', 'run-' || i, 'U1', at, at from seq;
      insert into runs (run_id, thread_key, platform, request_id, requester, title, state,
                        service_updated_at, applied, trigger_message, status_message,
                        notified_state, next_check_at, check_interval_ms, tracked,
                        created_at, updated_at)
        select 'run-' || i, 'slack:T1:C1:' || i || '.1', 'slack', 'slack:Ev' || i,
               '{"id":"U1"}', 'Fix the flaky test number ' || i, 'SUCCEEDED',
               '2030-01-01T00:00:00.000Z', '[]', '{"id":"' || i || '.1"}',
               '{"id":"' || i || '.2"}', 'SUCCEEDED', at, 60000, 0, at, at from seq;
      insert into run_states (run_id, state, at)
        select 'run-' || i, 'SUCCEEDED', at from seq;
      insert into inbox (delivery_id, thread_key, trigger, status, attempts, next_attempt_at,
                         created_at, updated_at)
        select 'Ev' || i, 'slack:T1:C1:' || i || '.1',
               '{"platform":"slack","kind":"mention","text":"fix the flaky test ' || i || '"}',
               'done', 1, at, at, at from seq;
      insert into outbox (thread_key, payload, status, attempts, next_attempt_at, created_at,
                          updated_at)
        select 'slack:T1:C1:' || i || '.1', '{"kind":"post","text":"Succeeded ' || i || '"}',
               'delivered', 1, at, at, at from seq;
      insert into start_messages (request_id, thread_key, message, created_at)
        select 'slack:Ev' || i, 'slack:T1:C1:' || i || '.1', '{"id":"' || i || '.2"}', at
        from seq;
      commit;
    `);
  } finally {
    db.close();
  }
}

function liveBytes(path: string): number {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    const pages = db.pragma('page_count', { simple: true }) as number;
    const free = db.pragma('freelist_count', { simple: true }) as number;
    const size = db.pragma('page_size', { simple: true }) as number;
    return (pages - free) * size;
  } finally {
    db.close();
  }
}

// Seeding and pruning a million triggers is a fixed amount of disk and CPU work; on a two-core
// machine that runs other test files at the same time it takes several times as long as
// alone, so the timeout is for a hung test, not a slow one.
it('1,000,000 triggers served: retention with the defaults keeps the database within the stated size', async () => {
  seed(temp.path);
  const before = liveBytes(temp.path);
  const config = loadConfig({});
  const retention = createRetention({
    store,
    clock: { now: () => NOW },
    logger: createRecordingLogger(),
    keepMs: config.retentionDays * DAY,
    runsKeepMs: config.runRetentionDays * DAY,
    batch: 50_000,
  });
  let pruned = await retention.runOnce();
  while (Object.values(pruned).some((n) => n > 0)) pruned = await retention.runOnce();
  await store.close();

  const db = new BetterSqlite3(temp.path, { readonly: true });
  const count = (table: string) =>
    (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  const counts = Object.fromEntries(
    ['inbox', 'outbox', 'start_messages', 'runs', 'run_states', 'threads'].map((t) => [
      t,
      count(t),
    ]),
  );
  db.close();
  // The window includes its first moment: one more row than days times the daily rate.
  const queueDays = config.retentionDays * PER_DAY + 1;
  const runDays = config.runRetentionDays * PER_DAY + 1;
  expect(counts).toEqual({
    inbox: queueDays,
    outbox: queueDays,
    start_messages: queueDays,
    runs: runDays,
    run_states: runDays,
    threads: runDays,
  });
  const after = liveBytes(temp.path);
  console.info(
    `retention: ${Math.round(before / 2 ** 20)} MiB of data before, ${Math.round(after / 2 ** 20)} MiB after`,
  );
  expect(after).toBeLessThan(STATED_MAX_BYTES);
  expect(after).toBeLessThan(before / 5);
  // The file keeps its freed pages for reuse; it does not grow further.
  expect(statSync(temp.path).size).toBeGreaterThan(0);
}, 360_000);
