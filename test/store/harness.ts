/**
 * Test harnesses: the same store tests run against a real SQLite file in a temp directory
 * and, in postgres.test.ts, against a fresh schema of a throwaway PostgreSQL server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { OutboxPayload, RunRecord } from '../../src/core/ports/index.js';
import type { Trigger } from '../../src/core/trigger.js';
import { openStore } from '../../src/store/index.js';
import type { OpenedStore, OpenStoreOptions } from '../../src/store/index.js';
import { currentPerTest } from '../helpers/world-per-test.js';

export interface StoreHarness {
  kind: 'sqlite' | 'postgres';
  /** Open (or reopen) a store on this harness's database. */
  open(options?: Partial<OpenStoreOptions>): Promise<OpenedStore>;
  /** Run raw SQL on the database behind the store's back (to damage rows). */
  exec(sql: string): Promise<void>;
  /** Close every store opened here and delete the database. */
  cleanup(): Promise<void>;
}

export type HarnessFactory = () => Promise<StoreHarness>;

/** A fresh database for each test of a contract suite, and a store opened on it. */
export interface EachTestStore {
  readonly harness: StoreHarness;
  readonly store: OpenedStore;
}

/**
 * Inside a `describe`: before each test a new database from `createHarness` and a store opened
 * on it; after it, both closed and the database deleted.
 */
export function freshStoreEachTest(createHarness: HarnessFactory): EachTestStore {
  return onFreshDatabase('the store', createHarness, async (harness) => ({
    store: await harness.open(),
  }));
}

/** Before each test a new database with the stores `open` opens on it; after it, all closed. */
function onFreshDatabase<T extends object>(
  what: string,
  createHarness: HarnessFactory,
  open: (harness: StoreHarness) => Promise<T>,
): T & { readonly harness: StoreHarness } {
  return currentPerTest(
    what,
    async () => {
      const harness = await createHarness();
      return { harness, ...(await open(harness)) };
    },
    (current) => current.harness.cleanup(),
  );
}

/**
 * Inside a `describe`: a harness from `create`, new before each test (or, with `'all'`, once
 * before the first) and cleaned up after it. What it returns stands for the current harness.
 */
export function harnessPer<H extends StoreHarness>(
  create: () => Promise<H>,
  scope: 'each' | 'all' = 'each',
): H {
  return currentPerTest('the harness', create, (harness) => harness.cleanup(), scope);
}

/** Two stores on one database, as two replicas see it: `a` and `b`. */
export interface TwoReplicas {
  readonly harness: StoreHarness;
  readonly a: OpenedStore;
  readonly b: OpenedStore;
}

/**
 * Inside a `describe`: before each test a new database from `createHarness` and two stores
 * opened on it; after it, all closed and the database deleted.
 */
export function twoReplicasEachTest(createHarness: HarnessFactory): TwoReplicas {
  return onFreshDatabase('the stores', createHarness, async (harness) => ({
    a: await harness.open(),
    b: await harness.open(),
  }));
}

export interface SqliteHarness extends StoreHarness {
  dir: string;
  path: string;
  /**
   * Run `fn` while another connection holds the database's write lock (`begin exclusive`);
   * the lock is let go when `fn` ends, however it ends.
   */
  whileLocked<T>(fn: () => Promise<T>): Promise<T>;
}

export async function createSqliteHarness(): Promise<SqliteHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-relay-store-'));
  const path = join(dir, 'nested', 'relay.db');
  const opened: OpenedStore[] = [];
  return {
    kind: 'sqlite',
    dir,
    path,
    async open(options) {
      const store = await openStore({ databaseUrl: `sqlite:${path}`, ...options });
      opened.push(store);
      return store;
    },
    async exec(sql) {
      const raw = new BetterSqlite3(path);
      try {
        raw.exec(sql);
      } finally {
        raw.close();
      }
    },
    async whileLocked(fn) {
      const raw = new BetterSqlite3(path);
      raw.exec('begin exclusive');
      try {
        return await fn();
      } finally {
        raw.exec('rollback');
        raw.close();
      }
    },
    async cleanup() {
      await Promise.all(opened.map((s) => s.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function sampleTrigger(overrides: Partial<Trigger> = {}): Trigger {
  return {
    platform: 'slack',
    kind: 'mention',
    threadKey: 'slack:T1:C1:100.1',
    actor: { id: 'U1', name: 'Ada' },
    text: 'fix the flaky test',
    addressed: true,
    context: { permalink: 'https://example.slack.com/archives/C1/p1001' },
    deliveryId: 'Ev1',
    receivedAt: '2025-01-01T00:00:00.000Z',
    settingsScope: 'slack:T1:C1',
    triggerMessage: { threadKey: 'slack:T1:C1:100.1', id: 'C1:100.1' },
    ...overrides,
  };
}

export function samplePayload(threadKey: string, text = 'hello'): OutboxPayload {
  return {
    kind: 'post',
    destination: { threadKey },
    message: { type: 'notice', tone: 'info', text },
  };
}

export function sampleRun(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    runId: 'run-1',
    threadKey: 'slack:T1:C1:100.1',
    platform: 'slack',
    requestId: 'req-1',
    requester: { id: 'U1', name: 'Ada' },
    title: 'Fix the flaky test',
    state: 'QUEUED',
    applied: [
      { key: 'model', value: 'big', source: 'inline' },
      { key: 'env', source: 'service' },
    ],
    nextCheckAt: 1_000,
    checkIntervalMs: 2_000,
    tracked: true,
    createdAt: 500,
    updatedAt: 500,
    ...overrides,
  };
}
