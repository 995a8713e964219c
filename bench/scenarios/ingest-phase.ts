/**
 * One ingest phase: a fresh process (agent-relay or the framework floor) against fresh
 * backends, a short warm-up, then open-loop load at one rate; for agent-relay optionally
 * the wait for every run's first status message (end to end).
 */
import { join } from 'node:path';
import type { FirstPosts } from '../children/backends-api.js';
import type { ScenarioContext } from '../lib/context.js';
import { sleep } from '../lib/context.js';
import { runOpenLoop } from '../lib/load-generator.js';
import type { AcceptedSend, LoadRun } from '../lib/load-generator.js';
import { createPayloadFactory } from '../lib/payloads.js';
import { scrapeMetrics, startFloorProcess, waitFor200 } from '../lib/processes.js';
import { startServiceProcess } from '../lib/service-process.js';
import { summarize } from '../lib/stats.js';
import type { Summary } from '../lib/stats.js';

export type Target = 'floor' | 'ours';

export interface EndToEnd {
  /** Delay from the trigger's send to the receipt of its run's first status message (ms). */
  slack: Summary;
  github: Summary;
  accepted: { slack: number; github: number };
  delivered: { slack: number; github: number };
  /** How long after the load the bench waited for messages; undelivered count as later. */
  waitedMs: number;
}

export interface PhaseResult {
  target: Target;
  /** Which events: half Slack and half GitHub (the ingest scenario), or Slack only. */
  mix: 'both' | 'slack';
  rate: number;
  repeat: number;
  sent: number;
  ok: number;
  errors: Record<string, number>;
  errorCount: number;
  achievedRate: number;
  latency: { all: Summary; slack: Summary; github: Summary };
  /**
   * agent-relay only, from its /metrics right after the load: event-loop delay during the
   * load (prom-client resets the histogram at each scrape) and the queues left behind.
   */
  service?: Record<string, number>;
  e2e?: EndToEnd;
}

const SERVICE_METRICS = [
  'nodejs_eventloop_lag_p50_seconds',
  'nodejs_eventloop_lag_p99_seconds',
  'nodejs_eventloop_lag_max_seconds',
  'agent_relay_inbox_depth',
  'agent_relay_outbox_depth',
];

let phaseSeq = 0;

export async function runIngestPhase(
  ctx: ScenarioContext,
  input: {
    target: Target;
    rate: number;
    repeat: number;
    endToEnd: boolean;
    mix?: 'both' | 'slack';
  },
): Promise<PhaseResult> {
  const s = ctx.settings.ingest;
  const urls = await ctx.backends.rpc.call('start', { timings: { runMs: 60_000 } });
  const name = `ingest-${input.target}-${input.rate}-${++phaseSeq}`;
  const proc =
    input.target === 'floor'
      ? await startFloorProcess(ctx.workDir)
      : await startServiceProcess({
          backends: urls,
          workDir: ctx.workDir,
          name,
          databasePath: join(ctx.workDir, `${name}.db`),
          logLevel: ctx.logLevel,
          ...(ctx.profileDir ? { profileDir: ctx.profileDir } : {}),
        });
  try {
    await waitFor200(proc, '/readyz');
    const factory = createPayloadFactory({
      mix: input.mix ?? 'both',
      botUserId: urls.slackBotUserId,
      teamId: urls.slackTeamId,
    });
    await runOpenLoop({
      url: proc.url,
      rate: Math.min(100, input.rate),
      durationMs: s.warmupMs,
      makeRequest: (i) => factory(500_000 + i),
    });
    const ours = input.target === 'ours';
    if (ours) await scrapeMetrics(proc.url, SERVICE_METRICS); // resets the lag histogram
    const load = await runOpenLoop({
      url: proc.url,
      rate: input.rate,
      durationMs: s.durationMs,
      makeRequest: factory,
    });
    const service = ours ? await scrapeMetrics(proc.url, SERVICE_METRICS) : undefined;
    const e2e = input.endToEnd ? await endToEnd(ctx, load.accepted, s.drainMs) : undefined;
    return { ...toResult(input, load, e2e), ...(service ? { service } : {}) };
  } finally {
    await proc.stop();
  }
}

function toResult(
  input: { target: Target; rate: number; repeat: number; mix?: 'both' | 'slack' },
  load: LoadRun,
  e2e: EndToEnd | undefined,
): PhaseResult {
  return {
    target: input.target,
    mix: input.mix ?? 'both',
    rate: input.rate,
    repeat: input.repeat,
    sent: load.sent,
    ok: load.ok,
    errors: load.errors,
    errorCount: Object.values(load.errors).reduce((a, b) => a + b, 0),
    achievedRate: load.achievedRate,
    latency: {
      all: summarize([...load.latency.slack, ...load.latency.github]),
      slack: summarize(load.latency.slack),
      github: summarize(load.latency.github),
    },
    ...(e2e ? { e2e } : {}),
  };
}

async function endToEnd(
  ctx: ScenarioContext,
  accepted: readonly AcceptedSend[],
  drainMs: number,
): Promise<EndToEnd> {
  const want = { slack: 0, github: 0 };
  for (const a of accepted) want[a.platform] += 1;
  const started = Date.now();
  const measure = (posts: FirstPosts) => {
    const at = { slack: new Map(posts.slack), github: new Map(posts.github) };
    const delays = { slack: [] as number[], github: [] as number[] };
    const delivered = { slack: 0, github: 0 };
    for (const a of accepted) {
      const t = at[a.platform].get(a.threadRef);
      if (t === undefined) delays[a.platform].push(Number.POSITIVE_INFINITY);
      else {
        delivered[a.platform] += 1;
        delays[a.platform].push(Math.max(0, t - a.dueAt));
      }
    }
    return { delays, delivered };
  };
  let m = measure(await ctx.backends.rpc.call('firstPosts', null));
  while (Date.now() - started < drainMs) {
    if (m.delivered.slack >= want.slack && m.delivered.github >= want.github) break;
    await sleep(250);
    m = measure(await ctx.backends.rpc.call('firstPosts', null));
  }
  const { delays, delivered } = m;
  return {
    slack: summarize(delays.slack),
    github: summarize(delays.github),
    accepted: want,
    delivered,
    waitedMs: Date.now() - started,
  };
}
