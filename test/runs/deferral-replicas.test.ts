/**
 * Deferred triggers on replicas sharing one real PostgreSQL database: what one replica stepped
 * back to the inbox while the service was slow, another replica takes back as it has room,
 * and every run is created once, with one first sign each. Two engines on two stores of one
 * database, each with its own service lane (one create at a time) behind its own gate, so the
 * test can see which replica sent a create. Skipped, with a warning, only where PostgreSQL
 * cannot be started.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentClient } from '../../src/agent/index.js';
import type { Store } from '../../src/core/ports/index.js';
import { openStore } from '../../src/store/index.js';
import { waitUntil } from '../helpers/wait-until.js';
import { worldPerTest } from '../helpers/world-per-test.js';
import { startGate, type Gate } from '../reliability/gate-proxy.js';
import { createDatabase, startPostgres, type PostgresServer } from '../store/postgres-server.js';
import type { EngineOptions } from '../../src/runs/runs-deps.js';
import {
  awaitEveryRunsCard,
  createdTitles,
  slackMention,
  startTestEnv,
  type TestEngine,
} from './fixtures.js';

const server: PostgresServer | undefined = await startPostgres().catch((err: unknown) => {
  console.warn('deferral on replicas skipped: starting PostgreSQL failed', err);
  return undefined;
});
if (!server) console.warn('deferral on replicas skipped: no TEST_POSTGRES_URL and no initdb');
afterAll(async () => {
  await server?.stop();
});

interface Replica {
  store: Store;
  gate: Gate;
  engine: TestEngine;
}

/**
 * The test env (emulator, recording notifiers) and the replicas made on it; closing stops the
 * engines (env.close), then the gates and stores they used.
 */
const startWorld = worldPerTest(async (options: Partial<EngineOptions>) => {
  const env = await startTestEnv({ options });
  const replicas: Replica[] = [];
  return {
    env,
    /** A replica: its own store on the shared database, its own frozen gate to the service. */
    async replica(databaseUrl: string): Promise<Replica> {
      const store = await openStore({ databaseUrl });
      const gate = await startGate(env.emulator.baseUrl);
      gate.freeze();
      const agent = createAgentClient({
        baseUrl: gate.url,
        apiKey: env.emulator.apiKey,
        maxRetries: 0,
        timeoutMs: 10_000,
      });
      const replica = { store, gate, engine: env.makeEngine(store, { agent }) };
      replicas.push(replica);
      return replica;
    },
    async close() {
      for (const r of replicas) r.gate.thaw();
      await env.close();
      for (const r of replicas) await r.gate.close();
      for (const r of replicas) await r.store.close();
    },
  };
});

describe.skipIf(!server)('deferred triggers on replicas sharing one PostgreSQL database', () => {
  it('what one replica stepped back, another takes back; every run is created once, with one first sign', async () => {
    const databaseUrl = await createDatabase(server!.url, 'relay_deferral_replicas');
    // Four in hand, one create at a time and one more waiting for it, per replica.
    const world = await startWorld({ inboxConcurrency: 4, serviceConcurrency: 1 });
    const { env } = world;
    const a = await world.replica(databaseUrl);
    a.engine.start();
    const triggers = Array.from({ length: 12 }, (_, i) =>
      slackMention({ text: `task ${String(i).padStart(2, '0')}` }),
    );
    for (const trigger of triggers) await a.engine.sink.accept(trigger);
    await waitUntil(() => env.slack.posts.length === 12 && env.slack.reactions.length === 12, {
      message: 'twelve first signs from the first replica while its create is held',
    });
    expect(a.gate.held()).toBe(1);
    expect(await a.store.operator.queueHealth()).toMatchObject({
      inbox: { waiting: 10, processing: 2 },
    });

    // A second replica starts: it looks for deferred triggers at once and takes two (its
    // lane's one in flight and one waiting), oldest request first.
    const b = await world.replica(databaseUrl);
    b.engine.start();
    await waitUntil(() => b.gate.held() === 1, {
      message: 'the second replica sends a create of a trigger the first one stepped back',
    });
    expect(await b.store.operator.queueHealth()).toMatchObject({
      inbox: { waiting: 8, processing: 4 },
    });
    expect(env.emulator.runs.count()).toBe(0);

    a.gate.thaw();
    b.gate.thaw();
    await waitUntil(() => env.emulator.runs.count() === 12, { message: 'twelve runs created' });
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(12);
    expect(createdTitles(env)).toEqual(triggers.map((t) => t.text));
    // Each "Starting…" became its run's status, whichever replica created it.
    await awaitEveryRunsCard(env, a.store);
    // One card per thread; the runs that ended meanwhile told their outcome once.
    const cards = env.slack.posts.filter((p) => p.message.type === 'run_status');
    expect(new Set(cards.map((p) => p.to.threadKey)).size).toBe(12);
    expect(cards).toHaveLength(12);
    const outcomes = env.slack.posts.filter((p) => p.message.type === 'run_outcome');
    expect(new Set(outcomes.map((p) => p.to.threadKey)).size).toBe(outcomes.length);
    expect(env.slack.reactions.filter((r) => r.reaction === 'seen')).toHaveLength(12);
    expect(await a.store.inboxQueue.depth()).toBe(0);
    await Promise.all([a.engine.stop(), b.engine.stop()]);
  });
});
