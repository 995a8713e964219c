/**
 * Scale-out: replicas of the service (each `tsx src/cli.ts start`) on one real PostgreSQL.
 * - tracking: N live runs (seeded in the emulator and the database) changing at random;
 *   with 1, 2 and 3 replicas, requests per minute to the Agent Run Service and the delay from
 *   each change to the message that shows it;
 * - failover: with 3 replicas, the one holding the tracking lease is killed (SIGKILL); the
 *   time until another holds it, and the delay of the first change made after the kill;
 * - ingest: open-loop Slack and GitHub triggers spread over 1 and 3 replicas: answered/s and
 *   acknowledgement latency;
 * - history: one replica on a database holding H finished runs and their threads (seeded with
 *   one INSERT … SELECT generate_series) against an empty one, both tracking the same N live
 *   runs: ingest p99 and the tracker's cycle time.
 * Needs the PostgreSQL server binaries (`initdb`) or TEST_POSTGRES_URL; says so otherwise.
 */
import pg from 'pg';
import { createDatabase, startPostgres } from '../../test/store/postgres-server.js';
import type { BackendUrls, SeededRun } from '../children/backends-api.js';
import type { ScenarioContext } from '../lib/context.js';
import { sleep } from '../lib/context.js';
import { runOpenLoop } from '../lib/load-generator.js';
import type { LoadRun } from '../lib/load-generator.js';
import { createPayloadFactory } from '../lib/payloads.js';
import { waitFor200 } from '../lib/processes.js';
import type { ServiceProcess } from '../lib/processes.js';
import { seedStore } from '../lib/seed-store.js';
import { startServiceProcess } from '../lib/service-process.js';
import { summarize } from '../lib/stats.js';
import type { Summary } from '../lib/stats.js';

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
  history: ScaleoutHistory[];
  skipped?: string;
}

interface Cluster {
  urls: BackendUrls;
  databaseUrl: string;
  replicas: ServiceProcess[];
  stop(): Promise<void>;
}

export async function runScaleout(ctx: ScenarioContext): Promise<ScaleoutResult> {
  const s = ctx.settings.scaleout;
  const result: ScaleoutResult = {
    pollIntervalMs: s.pollIntervalMs,
    perRunMeanIntervalMs: s.perRunMeanIntervalMs,
    tracking: [],
    ingest: [],
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
    for (const replicas of s.ingestReplicas) {
      const cluster = await startCluster(ctx, await database(), replicas, 0);
      try {
        for (const rate of s.ingestRates) {
          const row = await measureIngest(ctx, cluster, rate);
          result.ingest.push(row);
          ctx.log(
            `scaleout ingest x${replicas} at ${rate}/s: ${row.answeredPerSecond.toFixed(0)}/s, ` +
              `p99 ${row.latency.p99.toFixed(0)} ms, errors ${row.errors}`,
          );
        }
      } finally {
        await cluster.stop();
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

async function startCluster(
  ctx: ScenarioContext,
  databaseUrl: string,
  count: number,
  tracked: number,
): Promise<Cluster> {
  const { rpc } = ctx.backends;
  const urls = await rpc.call('start', {});
  if (tracked > 0) {
    const seeded: SeededRun[] = await rpc.call('seedTracked', {
      n: tracked,
      githubShare: 0.1,
      seed: tracked,
    });
    await seedStore(databaseUrl, seeded, { seed: tracked });
  }
  const replicas = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      startServiceProcess({
        backends: urls,
        workDir: ctx.workDir,
        name: `scaleout-${count}-${i}-${Date.now()}`,
        databasePath: databaseUrl,
        pollIntervalMs: ctx.settings.scaleout.pollIntervalMs,
        logLevel: ctx.logLevel,
      }),
    ),
  );
  await Promise.all(replicas.map((r) => waitFor200(r, '/readyz')));
  return {
    urls,
    databaseUrl,
    replicas,
    stop: async () => {
      await Promise.all(replicas.map((r) => r.stop()));
    },
  };
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

async function leaseHolder(databaseUrl: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ holder: string }>(
      'select holder from leases where name = $1 and lease_until > $2',
      ['tracker', Date.now()],
    );
    return rows.rows[0]?.holder;
  } finally {
    await client.end();
  }
}

/** Which replica took the lease named `holder` (its log says so). */
async function replicaHolding(cluster: Cluster, holder: string): Promise<ServiceProcess> {
  const { readFileSync } = await import('node:fs');
  const found = cluster.replicas.find((r) =>
    readFileSync(r.logFile, 'utf8').includes(`"holder":"${holder}"`),
  );
  if (!found) throw new Error(`no replica logged taking the lease as ${holder}`);
  return found;
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

/** Open-loop load spread evenly over the replicas; merged as one run. */
async function spreadLoad(
  ctx: ScenarioContext,
  cluster: Cluster,
  rate: number,
): Promise<LoadRun[]> {
  const s = ctx.settings.scaleout;
  const k = cluster.replicas.length;
  return Promise.all(
    cluster.replicas.map((r) =>
      runOpenLoop({
        url: r.url,
        rate: rate / k,
        durationMs: s.ingestDurationMs,
        makeRequest: createPayloadFactory({
          mix: 'both',
          botUserId: cluster.urls.slackBotUserId,
          teamId: cluster.urls.slackTeamId,
        }),
      }),
    ),
  );
}

async function measureIngest(
  ctx: ScenarioContext,
  cluster: Cluster,
  rate: number,
): Promise<ScaleoutIngest> {
  await spreadLoad(ctx, cluster, Math.min(rate, 50)); // warm-up
  const runs = await spreadLoad(ctx, cluster, rate);
  const latency = runs.flatMap((r) => [...r.latency.slack, ...r.latency.github]);
  return {
    replicas: cluster.replicas.length,
    offeredRate: rate,
    answeredPerSecond: runs.reduce((a, r) => a + r.achievedRate, 0),
    errors: runs.reduce((a, r) => a + Object.values(r.errors).reduce((x, y) => x + y, 0), 0),
    latency: summarize(latency),
  };
}

async function cycleTotals(url: string): Promise<{ sum: number; count: number }> {
  const res = await fetch(`${url}/metrics`);
  const text = await res.text();
  const pick = (name: string) =>
    text
      .split('\n')
      .filter((l) => l.startsWith(name))
      .reduce((a, l) => a + Number(l.split(' ').at(-1)), 0);
  return {
    sum: pick('agent_relay_tracker_cycle_seconds_sum'),
    count: pick('agent_relay_tracker_cycle_seconds_count'),
  };
}

async function measureHistory(
  ctx: ScenarioContext,
  cluster: Cluster,
  finished: number,
  seedMs: number,
): Promise<ScaleoutHistory> {
  const s = ctx.settings.scaleout;
  const { rpc } = ctx.backends;
  const replica = cluster.replicas[0]!;
  await sleep(s.warmupMs);
  // The tracker's cycles first, on their own (ingress first would hold them back during a
  // burst), then the ingest load.
  const before = await cycleTotals(replica.url);
  await rpc.call('startChanges', { perRunMeanIntervalMs: s.perRunMeanIntervalMs, seed: 7 });
  await sleep(s.windowMs);
  await rpc.call('stopChanges', null);
  const after = await cycleTotals(replica.url);
  await spreadLoad(ctx, cluster, Math.min(s.historyIngestRate, 50)); // warm-up
  const runs = await spreadLoad(ctx, cluster, s.historyIngestRate);
  const latency = summarize(runs.flatMap((r) => [...r.latency.slack, ...r.latency.github]));
  return {
    finishedRuns: finished,
    seedMs,
    ingestP50Ms: latency.p50,
    ingestP99Ms: latency.p99,
    cycleMs:
      after.count > before.count
        ? ((after.sum - before.sum) * 1000) / (after.count - before.count)
        : Number.NaN,
  };
}

/**
 * `finished` ended, untracked runs, each with its thread, written by two INSERT … SELECT
 * generate_series statements (as a long-lived deployment accumulates them).
 */
async function seedHistory(databaseUrl: string, finished: number): Promise<void> {
  const { openStore } = await import('../../src/store/index.js');
  const store = await openStore({ databaseUrl }); // the schema first
  await store.close();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const t0 = 1_700_000_000_000;
    await client.query(
      `insert into threads (thread_key, platform, current_run_id, started_by, created_at, updated_at)
       select 'slack:THIST:CHIST:' || g || '.000100', 'slack', 'hist-' || g, 'UHIST', $1::bigint + g, $1::bigint + g
       from generate_series(1, $2::int) g`,
      [t0, finished],
    );
    await client.query(
      `insert into runs (run_id, thread_key, platform, request_id, requester, title, state,
         service_updated_at, applied, factory, trigger_message, status_message, notified_state,
         next_check_at, check_interval_ms, tracked, created_at, updated_at)
       select 'hist-' || g, 'slack:THIST:CHIST:' || g || '.000100', 'slack', 'slack:EvHIST' || g,
         '{"id":"UHIST"}', 'an old task ' || g,
         (array['SUCCEEDED','FAILED','CANCELLED'])[1 + g % 3], '2024-01-01T00:00:00.000Z', '[]',
         null, null, '{"threadKey":"slack:THIST:CHIST:' || g || '.000100","id":"CHIST:' || g || '.000200"}',
         (array['SUCCEEDED','FAILED','CANCELLED'])[1 + g % 3], $1::bigint + g, 60000, 0, $1::bigint + g, $1::bigint + g
       from generate_series(1, $2::int) g`,
      [t0, finished],
    );
    await client.query('analyze');
  } finally {
    await client.end();
  }
}
