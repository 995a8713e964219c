/**
 * Scale-out: replicas of the service (each `tsx src/cli.ts start`) on one real PostgreSQL.
 * - tracking: N live runs (seeded in the emulator and the database) changing at random;
 *   with 1, 2 and 3 replicas, requests per minute to the Agent Run Service and the delay from
 *   each change to the message that shows it;
 * - failover: with 3 replicas, the one holding the tracking lease is killed (SIGKILL); the
 *   time until another holds it, and the delay of the first change made after the kill;
 * - ingest: open-loop Slack and GitHub triggers spread over 1 and 3 replicas, each rate on
 *   fresh replicas over a fresh database: answered/s and acknowledgement latency;
 * - capacity: floor's ladder (bench/lib/capacity.ts) with 1 and 3 replicas, the mentions spread
 *   over them: the highest rate sustained with first message p95 ≤ 1 s;
 * - history: one replica on a database holding H finished runs and their threads (seeded with
 *   one INSERT … SELECT generate_series) against an empty one, both tracking the same N live
 *   runs: ingest p99 and the tracker's cycle time.
 * Needs the PostgreSQL server binaries (`initdb`) or TEST_POSTGRES_URL; says so otherwise.
 */
import { createDatabase, startPostgres } from '../../test/store/postgres-server.js';
import type { Ladder } from '../lib/capacity.js';
import type { ScenarioContext } from '../lib/context.js';
import { sleep } from '../lib/context.js';
import { summarize } from '../lib/stats.js';
import type { Summary } from '../lib/stats.js';
import { leaseHolder, replicaHolding, startCluster } from './scaleout-cluster.js';
import type { Cluster } from './scaleout-cluster.js';
import { measureCapacity, measureHistory, measureIngest, seedHistory } from './scaleout-load.js';

export interface ScaleoutTracking {
  replicas: number;
  n: number;
  windowMs: number;
  requestsPerMinute: number;
  changes: number;
  delay: Summary;
  missing: number;
}

export interface ScaleoutIngest {
  replicas: number;
  offeredRate: number;
  answeredPerSecond: number;
  errors: number;
  latency: Summary;
}

export interface ScaleoutCapacity extends Ladder {
  replicas: number;
}

export interface ScaleoutHistory {
  finishedRuns: number;
  seedMs: number;
  ingestP99Ms: number;
  ingestP50Ms: number;
  /** The tracker's mean cycle time over the window (from its /metrics histogram). */
  cycleMs: number;
}

export interface ScaleoutResult {
  pollIntervalMs: number;
  perRunMeanIntervalMs: number;
  tracking: ScaleoutTracking[];
  failover?: { takeoverMs: number; leaseMs: number; firstChangeDelayMs: number };
  ingest: ScaleoutIngest[];
  /** None in results from before it was measured, or with `--rates 0`. */
  capacity?: ScaleoutCapacity[];
  /** Each rate's load (ms). */
  capacityDurationMs?: number;
  history: ScaleoutHistory[];
  skipped?: string;
}

export async function runScaleout(ctx: ScenarioContext): Promise<ScaleoutResult> {
  const s = ctx.settings.scaleout;
  const result: ScaleoutResult = {
    pollIntervalMs: s.pollIntervalMs,
    perRunMeanIntervalMs: s.perRunMeanIntervalMs,
    tracking: [],
    ingest: [],
    capacity: [],
    capacityDurationMs: ctx.settings.floor.ladder.durationMs,
    history: [],
  };
  const server = await startPostgres();
  if (!server) {
    ctx.log('scaleout skipped: no PostgreSQL server binaries (initdb) and no TEST_POSTGRES_URL');
    return { ...result, skipped: 'no PostgreSQL' };
  }
  let db = 0;
  const database = () => createDatabase(server.url, `bench_scaleout_${process.pid}_${(db += 1)}`);
  try {
    for (const replicas of s.replicas) {
      const cluster = await startCluster(ctx, await database(), replicas, s.n);
      try {
        result.tracking.push(await measureTracking(ctx, cluster, s.n));
        const t = result.tracking.at(-1)!;
        ctx.log(
          `scaleout tracking N=${s.n} x${replicas}: ${t.requestsPerMinute.toFixed(0)} req/min, ` +
            `delay p50 ${t.delay.p50.toFixed(0)} p95 ${t.delay.p95.toFixed(0)} ms, missing ${t.missing}`,
        );
        if (replicas === Math.max(...s.replicas)) {
          result.failover = await measureFailover(ctx, cluster);
          ctx.log(`scaleout failover: ${JSON.stringify(result.failover)}`);
        }
      } finally {
        await cluster.stop();
      }
    }
    // Each rate on fresh replicas over a fresh database, as the ingest scenario does: on one
    // cluster the rates' loads (each after its warm-up) ran back to back past the 30 s a burst
    // holds the workers, so the last rate measured the held work let go, not the ingress.
    for (const replicas of s.ingestReplicas) {
      for (const rate of s.ingestRates) {
        const cluster = await startCluster(ctx, await database(), replicas, 0);
        try {
          const row = await measureIngest(ctx, cluster, rate);
          result.ingest.push(row);
          ctx.log(
            `scaleout ingest x${replicas} at ${rate}/s: ${row.answeredPerSecond.toFixed(0)}/s, ` +
              `p99 ${row.latency.p99.toFixed(0)} ms, errors ${row.errors}`,
          );
        } finally {
          await cluster.stop();
        }
      }
    }
    if (ctx.settings.floor.ladder.rates.length > 0) {
      for (const replicas of s.capacityReplicas) {
        const row = await measureCapacity(ctx, database, replicas);
        result.capacity?.push(row);
        ctx.log(`scaleout capacity x${replicas}: ${row.highest}/s`);
      }
    }
    for (const finished of [0, s.historyRuns]) {
      const url = await database();
      const t0 = performance.now();
      if (finished > 0) await seedHistory(url, finished);
      const seedMs = performance.now() - t0;
      const cluster = await startCluster(ctx, url, 1, s.n);
      try {
        const row = await measureHistory(ctx, cluster, finished, seedMs);
        result.history.push(row);
        ctx.log(`scaleout history ${finished}: ${JSON.stringify(row)}`);
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    await server.stop();
  }
  return result;
}

async function measureTracking(
  ctx: ScenarioContext,
  cluster: Cluster,
  n: number,
): Promise<ScaleoutTracking> {
  const s = ctx.settings.scaleout;
  const { rpc } = ctx.backends;
  await sleep(s.warmupMs);
  await rpc.call('agentRequests', { reset: true });
  await rpc.call('startChanges', { perRunMeanIntervalMs: s.perRunMeanIntervalMs, seed: n + 1 });
  await sleep(s.windowMs);
  const changes = await rpc.call('stopChanges', null);
  const requests = await rpc.call('agentRequests', { reset: false });
  await sleep(s.graceMs);
  const delays = await rpc.call('trackingDelays', { changes });
  const total = Object.values(requests).reduce((a, b) => a + b, 0);
  return {
    replicas: cluster.replicas.length,
    n,
    windowMs: s.windowMs,
    requestsPerMinute: (total * 60_000) / s.windowMs,
    changes: changes.length,
    delay: summarize([
      ...delays.slack,
      ...delays.github,
      ...Array<number>(delays.missing).fill(Infinity),
    ]),
    missing: delays.missing,
  };
}

async function measureFailover(
  ctx: ScenarioContext,
  cluster: Cluster,
): Promise<ScaleoutResult['failover']> {
  const s = ctx.settings.scaleout;
  const { rpc } = ctx.backends;
  const before = await leaseHolder(cluster.databaseUrl);
  if (!before) throw new Error('nobody holds the tracking lease');
  const victim = await replicaHolding(cluster, before);
  victim.child.kill('SIGKILL');
  const killedAt = Date.now();
  await rpc.call('startChanges', { perRunMeanIntervalMs: s.perRunMeanIntervalMs, seed: 99 });
  let takeoverMs = NaN;
  while (Date.now() - killedAt < 60_000) {
    const now = await leaseHolder(cluster.databaseUrl);
    if (now !== undefined && now !== before) {
      takeoverMs = Date.now() - killedAt;
      break;
    }
    await sleep(50);
  }
  await sleep(s.pollIntervalMs * 3);
  const changes = await rpc.call('stopChanges', null);
  await sleep(s.graceMs);
  const first = changes.filter((c) => c.at >= killedAt).slice(0, 1);
  const delays = await rpc.call('trackingDelays', { changes: first });
  const d = [...delays.slack, ...delays.github][0] ?? NaN;
  cluster.replicas.splice(cluster.replicas.indexOf(victim), 1);
  return { takeoverMs, leaseMs: Math.max(4 * s.pollIntervalMs, 3_000), firstChangeDelayMs: d };
}
