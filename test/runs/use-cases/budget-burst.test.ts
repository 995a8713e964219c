/**
 * A budget holds under a burst (docs/usage.md, "What a run costs"): eight new runs asked for at
 * once in a channel with a $2 budget, each run costing $1.24 on the emulator (two of them are
 * more than the budget allows), wave after wave until the place refuses everything, the first
 * run working for longer than any time-limited hold. The spend the service reports in all stays
 * within the budget plus one run: on SQLite (one engine), and on two replicas sharing one
 * PostgreSQL database, the burst spread over both.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { placeThreadPrefix } from '../../../src/core/place.js';
import { runUsage } from '../../../src/core/run-usage.js';
import { isEndedState } from '../../../src/core/run.js';
import { FAST_TIMINGS } from '../../../src/emulator/index.js';
import type { Store } from '../../../src/core/ports/index.js';
import { openStore } from '../../../src/store/index.js';
import { createSchema, startPostgres, type PostgresServer } from '../../store/postgres-server.js';
import { slackMention, startTestEnv, type TestEngine, type TestEnv } from '../fixtures.js';

const PLACE = 'slack:T1:C1';
const BUDGET_USD = 2;
/** How long the first wave's run works (`[slow]`): far longer than any time-limited hold. */
const SLOW_RUN_MS = 10 * 60_000;

const server: PostgresServer | undefined = await startPostgres().catch((err: unknown) => {
  console.warn('budget burst on PostgreSQL skipped: starting a server failed', err);
  return undefined;
});
if (!server) console.warn('budget burst on PostgreSQL skipped: no TEST_POSTGRES_URL and no initdb');

let env: TestEnv | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await env?.close();
  env = undefined;
  for (const close of closers.splice(0)) await close();
});
afterAll(async () => {
  await server?.stop();
});

/** The relay's and the service's clock: real time, moved ahead while the first run works. */
const clock = { skew: 0, now: () => Date.now() + clock.skew };

interface World {
  env: TestEnv;
  /** The replicas (one on SQLite), each with its own store on the shared database. */
  engines: TestEngine[];
  store: Store;
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

let burstNo = 0;
/** Eight new runs asked for at once, spread over the replicas, each in a thread of its own. */
async function burst(world: World, marker = ''): Promise<void> {
  burstNo += 1;
  await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      world.engines[i % world.engines.length]!.sink.accept(
        slackMention({
          text: `Tidy up the release notes, part ${burstNo}.${i} ${marker}`.trim(),
          anchorsNewThread: true,
        }),
      ),
    ),
  );
  // Every replica claims and handles what it can, at the same time, until nothing is left.
  for (let round = 0; round < 20; round += 1) {
    const handled = await Promise.all(world.engines.map((e) => e.inbox.runOnce()));
    if (handled.every((n) => n === 0) && (await world.store.inboxQueue.depth()) === 0) return;
  }
  throw new Error('the burst was never handled');
}

/** Until every run the service holds has ended and the relay recorded its last cost. */
async function settle(world: World): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    for (const engine of world.engines) await engine.tracker.runCycle();
    const ended = world.env.emulator.runs.all().every((r) => isEndedState(r.state));
    const unknown = await world.store.runs.unknownCostSince(placeThreadPrefix(PLACE), 0, {
      limit: 1,
    });
    if (ended && unknown.length === 0) return;
    if (Date.now() > deadline) throw new Error('the runs never settled');
    await sleep(50);
  }
}

function reportedSpend(world: World): { total: number; dearest: number } {
  const costs = world.env.emulator.runs.all().map((r) => runUsage(r).costUsd ?? 0);
  return { total: costs.reduce((a, b) => a + b, 0), dearest: Math.max(0, ...costs) };
}

async function theBurst(world: World): Promise<void> {
  await world.store.settings.set(PLACE, 'budget', String(BUDGET_USD), 'U1', clock.now());

  // 1. Eight at once with nothing spent: one starts, and works for a long time.
  await burst(world, '[slow]');
  expect(world.env.emulator.runs.count()).toBe(1);
  // 2. However long it works (five minutes on, past any time-limited hold), eight more are
  //    refused while its cost is not known.
  clock.skew = 5 * 60_000;
  await burst(world);
  expect(world.env.emulator.runs.count()).toBe(1);
  expect(isEndedState(world.env.emulator.runs.all()[0]!.state)).toBe(false);
  clock.skew = SLOW_RUN_MS + 60_000;
  await settle(world);
  // 3. Its cost known ($1.24 of $2), eight more: one starts.
  await burst(world);
  expect(world.env.emulator.runs.count()).toBe(2);
  await settle(world);
  // 4. The budget is spent: everything is refused, now and in a later burst.
  await burst(world);
  await burst(world);
  expect(world.env.emulator.runs.count()).toBe(2);

  const spend = reportedSpend(world);
  expect(spend.dearest).toBeGreaterThan(1);
  expect(spend.total).toBeGreaterThan(BUDGET_USD);
  expect(spend.total).toBeLessThanOrEqual(BUDGET_USD + spend.dearest + 1e-9);
  // The relay counted what the service reported.
  expect(await world.store.runs.spendSince(placeThreadPrefix(PLACE), 0)).toBeCloseTo(
    spend.total,
    6,
  );
}

async function startWorld(): Promise<TestEnv> {
  clock.skew = 0;
  env = await startTestEnv({
    emulator: { timings: { ...FAST_TIMINGS, slowRunMs: SLOW_RUN_MS }, clock },
    deps: { clock },
  });
  return env;
}

describe('a burst of starts against a $2 budget', () => {
  it('on SQLite: the spend stays within the budget plus one run', async () => {
    const e = await startWorld();
    await theBurst({ env: e, engines: [e.engine], store: e.store });
  }, 30_000);

  it.skipIf(!server)(
    'on two replicas sharing PostgreSQL: the spend stays within the budget plus one run',
    async () => {
      const e = await startWorld();
      const schema = await createSchema(server!.url);
      const stores = [
        await openStore({ databaseUrl: schema.url, poolSize: 4 }),
        await openStore({ databaseUrl: schema.url, poolSize: 4 }),
      ];
      closers.push(async () => {
        for (const s of stores) await s.close();
        await schema.drop();
      });
      const engines = stores.map((s) => e.makeEngine(s));
      await theBurst({ env: e, engines, store: stores[0]! });
    },
    30_000,
  );
});
