/**
 * On PostgreSQL the queues' claims check each candidate's thread through the partial indexes
 * over open rows (migration 019): the plans the server itself chose for the store's own
 * statements, logged by auto_explain, must name them. Without them the planner intersected the
 * thread index with the status index and read every open row once per candidate, so a claim
 * at a backlog of thousands took seconds (docs/decisions/open-queue-indexes.md).
 *
 * The tables are filled as a backlog grows, without a fresh ANALYZE (autovacuum has not come
 * round yet), as when a backlog forms. Needs a server this file starts (it reads the server's
 * log) with auto_explain, so it is skipped with TEST_POSTGRES_URL, without initdb or without
 * PostgreSQL's contrib modules.
 */
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { InboxItem, OutboxItem } from '../../src/core/ports/index.js';
import { openStore } from '../../src/store/index.js';
import type { OpenedStore } from '../../src/store/index.js';
import { samplePayload, sampleTrigger } from './harness.js';
import { createDatabase, startPostgres } from './postgres-server.js';

const server = process.env.TEST_POSTGRES_URL
  ? undefined
  : await startPostgres().catch(() => undefined);

/** Whether the server has auto_explain (PostgreSQL's contrib modules), which this file reads plans by. */
async function hasAutoExplain(url: string): Promise<boolean> {
  return query(url, "load 'auto_explain'").then(
    () => true,
    () => false,
  );
}
const explains = server ? await hasAutoExplain(server.url) : false;
if (server && !explains) console.warn('claim plan tests skipped: no auto_explain on this server');

afterAll(async () => {
  await server?.stop();
});

const BACKLOG = 2_000;
const THREADS = 500;

async function query(url: string, sql: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql, values);
  } finally {
    await client.end();
  }
}

/** The plans auto_explain logged after `offset` in the server's log, one string each. */
async function plansAfter(offset: number): Promise<string[]> {
  const log = (await readFile(server!.logFile!, 'utf8')).slice(offset);
  return log.split(/\n(?=\S)/).filter((entry) => entry.includes('Query Text:'));
}

/**
 * A fresh database whose statements' plans are logged, a backlog written into it by one
 * `INSERT … SELECT` (`fill`, given the time the rows are due), and the plan PostgreSQL chose for
 * the statement `claim` sent that contains `marker`, with what the claim took.
 */
async function claimOverBacklog<T>(
  name: string,
  fill: string,
  values: (now: number) => unknown[],
  claim: (store: OpenedStore, now: number) => Promise<T[]>,
  marker: string,
): Promise<{ claimed: T[]; plan: string | undefined }> {
  const url = await createDatabase(server!.url, name);
  await explainEverything(url);
  const store = await openStore({ databaseUrl: url });
  try {
    const now = Date.now();
    await query(url, fill, values(now));
    const offset = (await readFile(server!.logFile!, 'utf8')).length;
    const claimed = await claim(store, now);
    const plan = (await plansAfter(offset)).find((entry) => entry.includes(marker));
    return { claimed, plan };
  } finally {
    await store.close();
  }
}

describe.skipIf(!server?.logFile || !explains)(
  'the queues claim through indexes of open rows (PostgreSQL)',
  () => {
    it('checks a candidate notification’s thread, and reads what is next in it, by outbox_pending_thread', async () => {
      const { claimed, plan } = await claimOverBacklog<OutboxItem>(
        'claim_plans_outbox',
        `insert into outbox (thread_key, payload, status, attempts, next_attempt_at, created_at, updated_at, low_priority)
       select 'slack:T1:C1:' || (g % $1) || '.1', $2, 'pending', 0, $3, $3, $3, 0
       from generate_series(1, $4) g`,
        (now) => [THREADS, JSON.stringify(samplePayload('slack:T1:C1:1.1')), now - 1_000, BACKLOG],
        (store, now) =>
          store.outboxQueue.claim(now, 60_000, 32, { threadKeyPrefix: 'slack:', lane: 'normal' }),
        'update "outbox" set "lease_until"',
      );
      // Per thread only the oldest: 32 notifications of 32 different threads.
      expect(claimed).toHaveLength(32);
      expect(new Set(claimed.map((item) => item.threadKey)).size).toBe(32);
      expect(plan, 'the claim’s plan was logged').toBeDefined();
      // The anti-join (older pending in the thread) and the next-in-thread read.
      expect(plan!.match(/outbox_pending_thread/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
      expect(plan).not.toContain('BitmapAnd');
    });

    it('checks a candidate trigger’s thread by inbox_open_thread, and looks for ran-out leases by inbox_processing', async () => {
      const { claimed, plan } = await claimOverBacklog<InboxItem>(
        'claim_plans_inbox',
        `insert into inbox (delivery_id, thread_key, trigger, status, attempts, next_attempt_at, created_at, updated_at)
       select 'Ev' || g, 'slack:T1:C1:' || (g % $1) || '.1', $2, 'pending', 0, $3, $3, $3
       from generate_series(1, $4) g`,
        (now) => [THREADS, JSON.stringify(sampleTrigger()), now - 1_000, BACKLOG],
        (store, now) => store.inboxQueue.claim(now, 60_000, 8),
        'update "inbox" set "status"',
      );
      expect(claimed).toHaveLength(8);
      expect(new Set(claimed.map((item) => item.threadKey)).size).toBe(8);
      expect(plan, 'the claim’s plan was logged').toBeDefined();
      expect(plan).toContain('inbox_open_thread');
      expect(plan).toContain('inbox_processing');
      expect(plan).not.toContain('BitmapAnd');
    });
  },
);

/** Every statement's plan goes to the server's log (sessions of this database opened later). */
async function explainEverything(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await query(url, `alter database ${name} set session_preload_libraries = 'auto_explain'`);
  await query(url, `alter database ${name} set auto_explain.log_min_duration = 0`);
}
