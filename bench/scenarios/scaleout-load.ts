/**
 * The scale-out bench's load measurements: triggers spread over the replicas (ingest), Slack
 * mentions spread over them at rising rates (capacity), and one replica on a database with a
 * long history against an empty one (history).
 */
import pg from 'pg';
import { RUNTIME_NODE_OPTIONS } from '../../src/service/node-options.js';
import { climbLadder, describeRung, measureMentions, mentionBackends } from '../lib/capacity.js';
import type { ScenarioContext } from '../lib/context.js';
import { sleep } from '../lib/context.js';
import { runSpreadOpenLoop } from '../lib/load-generator.js';
import type { LoadRun } from '../lib/load-generator.js';
import { createPayloadFactory } from '../lib/payloads.js';
import { summarize } from '../lib/stats.js';
import { startCluster } from './scaleout-cluster.js';
import type { Cluster } from './scaleout-cluster.js';
import type { ScaleoutCapacity, ScaleoutHistory, ScaleoutIngest } from './scaleout.js';

/** Open-loop Slack and GitHub triggers spread evenly over the replicas. */
async function spreadLoad(
  ctx: ScenarioContext,
  cluster: Cluster,
  rate: number,
): Promise<LoadRun[]> {
  return runSpreadOpenLoop({
    urls: cluster.replicas.map((r) => r.url),
    rate,
    durationMs: ctx.settings.scaleout.ingestDurationMs,
    makeRequest: createPayloadFactory({
      mix: 'both',
      botUserId: cluster.urls.slackBotUserId,
      teamId: cluster.urls.slackTeamId,
    }),
  });
}

/**
 * The capacity of `replicas` replicas: floor's ladder (each rate on a fresh database, fresh
 * backends and fresh replicas, run as the container runs them), the mentions spread evenly
 * over the replicas.
 */
export async function measureCapacity(
  ctx: ScenarioContext,
  database: () => Promise<string>,
  replicas: number,
): Promise<ScaleoutCapacity> {
  const { ladder, createLatencyMs } = ctx.settings.floor;
  const measured = await climbLadder(
    ladder.rates,
    async (rate) => {
      const cluster = await startCluster(ctx, await database(), replicas, 0, {
        backends: mentionBackends(createLatencyMs),
        env: { NODE_OPTIONS: RUNTIME_NODE_OPTIONS },
      });
      try {
        return await measureMentions(
          ctx,
          {
            urls: cluster.replicas.map((r) => r.url),
            pids: cluster.replicas.map((r) => r.pid),
            botUserId: cluster.urls.slackBotUserId,
            teamId: cluster.urls.slackTeamId,
          },
          { rate, durationMs: ladder.durationMs, createLatencyMs },
        );
      } finally {
        await cluster.stop();
      }
    },
    (rung) => ctx.log(`scaleout capacity x${replicas} ${describeRung(rung)}`),
  );
  return { replicas, ...measured };
}

export async function measureIngest(
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

export async function measureHistory(
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
export async function seedHistory(databaseUrl: string, finished: number): Promise<void> {
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
