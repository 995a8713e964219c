/**
 * The store contract on PostgreSQL, plus what only matters there: several replicas claiming
 * from one database. Skipped (with a note) when no PostgreSQL can be started here.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { OpenedStore } from '../../src/store/index.js';
import { describeInboxContract } from './contract-inbox.js';
import { describeBudgetContract } from './contract-budget.js';
import { describeConsoleContract } from './contract-console.js';
import { describeInstallationsContract } from './contract-installations.js';
import { describeOutboxContract } from './contract-outbox.js';
import { describeOperatorContract } from './contract-operator.js';
import { describeReplicaContract } from './contract-replicas.js';
import { describeRunsContract } from './contract-runs.js';
import { describeStartMessagesContract } from './contract-start-messages.js';
import { describeBlockedDescendantsContract } from './contract-blocked-descendants.js';
import { describeReactionIdsContract } from './contract-reaction-ids.js';
import { describeLinearSessionsContract } from './contract-linear-sessions.js';
import { describeThreadsAndSettingsContract } from './contract-threads-settings.js';
import { describeTransactionContract } from './contract-transactions.js';
import { emptyStats, endedItem, observerOn } from './contract-replicas.js';
import { harnessPer, samplePayload, sampleRun, sampleTrigger } from './harness.js';
import type { Clock } from '../../src/core/ports/index.js';
import { createDatabaseClock } from '../../src/service/database-clock.js';
import { createRecordingLogger } from '../helpers/test-logger.js';
import type { StoreHarness } from './harness.js';
import { createSchema, startPostgres } from './postgres-server.js';
import type { PostgresServer } from './postgres-server.js';

const server: PostgresServer | undefined = await startPostgres().catch((err: unknown) => {
  console.warn('PostgreSQL store tests skipped: starting a server failed', err);
  return undefined;
});
if (!server) console.warn('PostgreSQL store tests skipped: no TEST_POSTGRES_URL and no initdb');

let schema: { url: string; drop(): Promise<void> } | undefined;

afterAll(async () => {
  await schema?.drop();
  await server?.stop();
});

async function exec(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * One schema per file, emptied for each test (creating a schema and migrating it for every
 * test costs more than the tests themselves).
 */
async function createPostgresHarness(): Promise<StoreHarness> {
  if (!server) throw new Error('no PostgreSQL server');
  const current = schema ?? (schema = await createSchema(server.url));
  // DELETE is much cheaper than TRUNCATE on tables this small.
  await exec(
    current.url,
    `do $$ begin
       if to_regclass('inbox') is not null then
         delete from threads; delete from thread_aliases; delete from runs;
         delete from inbox; delete from outbox; delete from settings; delete from leases;
         alter sequence inbox_id_seq restart; alter sequence outbox_id_seq restart;
       end if;
     end $$`,
  );
  const opened: OpenedStore[] = [];
  return {
    kind: 'postgres',
    async open(options) {
      const store = await openStore({ databaseUrl: current.url, poolSize: 4, ...options });
      opened.push(store);
      return store;
    },
    exec: (sql) => exec(current.url, sql),
    async cleanup() {
      await Promise.all(opened.map((s) => s.close()));
    },
  };
}

describe.skipIf(!server)('PostgreSQL store', () => {
  describeInboxContract(createPostgresHarness);
  describeOutboxContract(createPostgresHarness);
  describeRunsContract(createPostgresHarness);
  describeReplicaContract(createPostgresHarness);
  describeThreadsAndSettingsContract(createPostgresHarness);
  describeTransactionContract(createPostgresHarness);
  describeOperatorContract(createPostgresHarness);
  describeInstallationsContract(createPostgresHarness);
  describeConsoleContract(createPostgresHarness);
  describeStartMessagesContract(createPostgresHarness);
  describeBlockedDescendantsContract(createPostgresHarness);
  describeReactionIdsContract(createPostgresHarness);
  describeLinearSessionsContract(createPostgresHarness);
  describeBudgetContract(createPostgresHarness);

  describe('replicas sharing one database', () => {
    const harness = harnessPer(createPostgresHarness, 'all');

    it('migrate concurrently without conflict, and each item is claimed by one replica in thread order', async () => {
      const replicas = await Promise.all([harness.open(), harness.open(), harness.open()]);
      const [first] = replicas;
      const threads = Array.from({ length: 8 }, (_, t) => `github:octo/repo:${t}`);
      let delivery = 0;
      for (let round = 0; round < 6; round += 1) {
        for (const threadKey of threads) {
          delivery += 1;
          await first!.inbox.add(sampleTrigger({ threadKey, deliveryId: `d${delivery}` }), 0);
        }
      }

      const claimedBy = new Map<number, number>();
      const busyThreads = new Set<string>();
      const doneOrder = new Map<string, number[]>();
      const violations: string[] = [];
      const work = replicas.map(async (replica, r) => {
        for (let idle = 0; idle < 30;) {
          const items = await replica.inboxQueue.claim(1, 600_000, 3);
          if (items.length === 0) {
            idle += 1;
            await new Promise((resolve) => setTimeout(resolve, 5));
            continue;
          }
          for (const item of items) {
            if (claimedBy.has(item.id)) violations.push(`item ${item.id} claimed twice`);
            if (busyThreads.has(item.threadKey))
              violations.push(`${item.threadKey} claimed while busy`);
            claimedBy.set(item.id, r);
            busyThreads.add(item.threadKey);
          }
          for (const item of items) {
            doneOrder.set(item.threadKey, [...(doneOrder.get(item.threadKey) ?? []), item.id]);
            busyThreads.delete(item.threadKey); // before complete: the next claim may follow it
            await replica.inbox.complete(item.id, 2);
          }
        }
      });
      await Promise.all(work);

      expect(violations).toEqual([]);
      expect(claimedBy.size).toBe(48);
      expect(new Set(claimedBy.values()).size).toBeGreaterThan(1);
      for (const ids of doneOrder.values()) expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(await first!.inboxQueue.depth()).toBe(0);
    });

    it('take deferred triggers back at the same time, each by one replica, each batch oldest request first', async () => {
      const replicas = await Promise.all([harness.open(), harness.open(), harness.open()]);
      const [first] = replicas;
      for (let t = 0; t < 60; t += 1) {
        await first!.inbox.add(
          sampleTrigger({ threadKey: `slack:T1:C1:${t}.1`, deliveryId: `deferred-${t}` }),
          t,
        );
      }
      for (let deferred = 0; deferred < 60;) {
        const claimed = await first!.inboxQueue.claim(100, 600_000, 60);
        expect(claimed.length).toBeGreaterThan(0);
        for (const item of claimed) await first!.inbox.defer(item.id, 200);
        deferred += claimed.length;
      }

      const takenBy = new Map<number, number[]>();
      const batches: number[][] = [];
      await Promise.all(
        replicas.map(async (replica, r) => {
          for (;;) {
            const items = await replica.inboxQueue.claimDeferred(300, 600_000, 4);
            if (items.length === 0) return;
            batches.push(items.map((i) => i.createdAt));
            for (const item of items) takenBy.set(item.id, [...(takenBy.get(item.id) ?? []), r]);
          }
        }),
      );

      expect([...takenBy.values()].filter((by) => by.length > 1)).toEqual([]);
      expect(takenBy.size).toBe(60);
      expect(new Set([...takenBy.values()].map(([r]) => r)).size).toBeGreaterThan(1);
      for (const batch of batches) expect(batch).toEqual([...batch].sort((a, b) => a - b));
      expect(await first!.operator.queueHealth()).toMatchObject({
        inbox: { waiting: 0, processing: 60 },
      });
    });
  });
});

describe.skipIf(!server)('PostgreSQL: trackers racing for real', () => {
  describe('replicas whose clocks disagree', () => {
    const harness = harnessPer(createPostgresHarness, 'all');

    it('a replica whose clock runs minutes ahead takes its time from the database and claims nothing twice', async () => {
      const [a, b] = await Promise.all([harness.open(), harness.open()]);
      const logger = createRecordingLogger();
      const local: Clock = { now: () => Date.now() };
      const ahead: Clock = { now: () => Date.now() + 3 * 60_000 };
      const clockA = await createDatabaseClock({
        local,
        databaseTime: a.databaseTime.bind(a),
        logger,
      });
      const clockB = await createDatabaseClock({
        local: ahead,
        databaseTime: b.databaseTime.bind(b),
        logger,
      });
      try {
        expect(Math.abs(clockA.now() - clockB.now())).toBeLessThan(1_000);
        const T = 'slack:T1:C9:1.1';
        await a.inbox.add(sampleTrigger({ deliveryId: 'skew-1', threadKey: T }), clockA.now());
        await a.outbox.enqueue(samplePayload(T, 'skew'), clockA.now());
        expect(await a.inboxQueue.claim(clockA.now(), 5_000, 10)).toHaveLength(1);
        expect(await a.outboxQueue.claim(clockA.now(), 5_000, 10)).toHaveLength(1);
        expect(await a.leases.acquire('tracker', 'replica-a', clockA.now(), 3_000)).toBeDefined();
        // The replica three minutes ahead: every lease A holds is still live for it.
        expect(await b.inboxQueue.claim(clockB.now(), 5_000, 10)).toHaveLength(0);
        expect(await b.outboxQueue.claim(clockB.now(), 5_000, 10)).toHaveLength(0);
        expect(await b.leases.acquire('tracker', 'replica-b', clockB.now(), 3_000)).toBeUndefined();
        // With its own clock it would have taken all three: what the database clock prevents.
        expect(await b.leases.acquire('tracker', 'replica-b', ahead.now(), 3_000)).toBeDefined();
        expect(await b.inboxQueue.claim(ahead.now(), 5_000, 10)).toHaveLength(1);
      } finally {
        clockA.close();
        clockB.close();
      }
    });
  });

  it('three trackers applying the same change at the same moment queue its notice once, every time', async () => {
    const harness = await createPostgresHarness();
    try {
      const stores = await Promise.all([harness.open(), harness.open(), harness.open()]);
      const observers = stores.map((s) => observerOn(s, () => 5_000));
      let conflicts = 0;
      for (let i = 0; i < 30; i += 1) {
        const runId = `race-${i}`;
        await stores[0]!.runs.insert(sampleRun({ runId, requestId: `req-${i}`, state: 'RUNNING' }));
        const item = endedItem(
          runId,
          i % 3 === 0 ? 'BLOCKED' : i % 3 === 1 ? 'FAILED' : 'SUCCEEDED',
        );
        const stats = observers.map(() => emptyStats());
        await Promise.all(observers.map((o, k) => o.apply(runId, item, stats[k]!)));
        conflicts += stats.reduce((n, s) => n + s.conflicts, 0);
        const posts = (await stores[0]!.outboxQueue.list()).filter(
          (n) => n.payload.runId === runId && n.payload.kind === 'post',
        );
        expect(posts, runId).toHaveLength(1);
        expect(
          stats.reduce((n, s) => n + s.changed, 0),
          runId,
        ).toBe(1);
      }
      // The races were real: some writers lost a compare-and-set and decided again.
      expect(conflicts).toBeGreaterThan(0);
    } finally {
      await harness.cleanup();
    }
  });
});

describe.skipIf(!server)('work that answers a platform in time (PostgreSQL)', () => {
  /** A store whose main pool (2 connections) is held by two open transactions until `release`. */
  async function withMainPoolHeld(options: { answerPoolSize?: number }) {
    const harness = await createPostgresHarness();
    const store = await harness.open({ poolSize: 2, ...options });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const holders = [1, 2].map(() =>
      store.transaction(async (tx) => {
        await tx.threads.get('slack:T1:C1:1.000100');
        started += 1;
        await released;
      }),
    );
    await expect.poll(() => started).toBe(2);
    return { harness, store, release, holders };
  }

  it("takes its connection from a pool of its own, never behind the workers' statements", async () => {
    const { harness, store, release, holders } = await withMainPoolHeld({});
    try {
      // Outside a deadline the insert waits for the main pool...
      let waitingDone = false;
      const waiting = store.inbox
        .add(sampleTrigger({ deliveryId: 'Ev-worker' }), 1)
        .then(() => (waitingDone = true));
      // ...while the acknowledgement's insert goes through at once.
      const added = await store.withDeadline(1_000, () =>
        store.inbox.add(
          sampleTrigger({ deliveryId: 'Ev-ack', threadKey: 'slack:T1:C1:2.000100' }),
          1,
        ),
      );
      expect(added).toBe(true);
      await expect(store.withDeadline(1_000, () => store.ping())).resolves.toBeUndefined();
      expect(waitingDone).toBe(false);
      release();
      await Promise.all([...holders, waiting]);
      expect(await store.inboxQueue.depth()).toBe(2);
    } finally {
      release();
      await harness.cleanup();
    }
  });

  it('with no pool of its own (answerPoolSize 0) it waits behind them and misses its deadline', async () => {
    const { harness, store, release, holders } = await withMainPoolHeld({ answerPoolSize: 0 });
    try {
      const late = store.withDeadline(300, () =>
        store.inbox.add(sampleTrigger({ deliveryId: 'Ev-ack' }), 1),
      );
      await expect(late).rejects.toMatchObject({ code: 'busy' });
      release();
      await Promise.all(holders);
      // Nothing landed after the caller was told it failed.
      expect(await store.inboxQueue.depth()).toBe(0);
    } finally {
      release();
      await harness.cleanup();
    }
  });
});

describe('PostgreSQL connection failures', () => {
  it('reports an unreachable server as a retryable StoreError (unavailable) without the password', async () => {
    const attempt = openStore({ databaseUrl: 'postgres://relay:s3cret@127.0.0.1:1/relay' });
    await expect(attempt).rejects.toMatchObject({
      name: 'StoreError',
      code: 'unavailable',
      retryable: true,
    });
    await expect(attempt).rejects.not.toThrow(/s3cret/);
  });
});
