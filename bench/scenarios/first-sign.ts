/**
 * First sign: what a person sees first while the Agent Run Service is slow to create runs.
 * Slack mentions (each in its own thread) at a steady rate against the service process, with
 * the service's create call held for 0, 1, 3 and 10 s by a delaying proxy in front of the
 * emulator. Per latency: the acknowledgement's latency (and the bare-framework floor's at the
 * same rate, run before and after each phase), the 👀 on the mention and the first message in
 * its thread (from when the mention was due to when the fake Slack received the call), how fast
 * runs were created once the service answers, and the backlog when the load ends.
 */
import { join } from 'node:path';
import { awaitFirstSigns, delaysFromDue } from '../lib/capacity.js';
import type { ScenarioContext } from '../lib/context.js';
import { runOpenLoop } from '../lib/load-generator.js';
import { createPayloadFactory } from '../lib/payloads.js';
import { scrapeMetrics, startFloorProcess, waitFor200 } from '../lib/processes.js';
import { startServiceProcess } from '../lib/service-process.js';
import { summarize } from '../lib/stats.js';
import type { Summary } from '../lib/stats.js';

export interface FirstSignRow {
  createLatencyMs: number;
  rate: number;
  durationMs: number;
  sent: number;
  accepted: number;
  errors: number;
  /** Acknowledgement latency of the signed HTTP requests (ms from due). */
  ack: Summary;
  /**
   * The bare framework (signature check + 200) at the same rate: the acknowledgement floor,
   * from the runs just before and just after each phase together (the machine is shared, so
   * each phase gets its own, and one run's p99 moved by up to 1.9x from the run before it).
   */
  floor: Summary;
  /** How many times this latency's phase ran; `ack`, `seen` and `firstMessage` are over all. */
  repeats?: number;
  /** Each run's ack p99 over the p99 of the floor runs around it (the run-to-run spread). */
  ackRatios?: number[];
  /** 👀 on the mention and the first message in its thread (ms from due; never = ∞). */
  seen: Summary;
  firstMessage: Summary;
  seenDelivered: number;
  firstMessageDelivered: number;
  /** Runs created per second between `createLatencyMs` after the first send and as long after the last. */
  createdPerSecond: number;
  /** Runs created in all, when the wait ended. */
  created: number;
  /** When the load ended: inbox rows open (claimed included), and triggers without a run yet. */
  inboxDepthAtEnd: number;
  outboxDepthAtEnd: number;
  withoutRunAtEnd: number;
  /** The service's event-loop delay during the load (p99, max; ms). */
  loopLagP99Ms: number;
  loopLagMaxMs: number;
  /**
   * The service process's CPU time (all its threads) during the load, per mention sent (ms):
   * far steadier from run to run than a tail latency, so what a change to the work per
   * mention does shows here first.
   */
  cpuMsPerMention?: number;
  /** The part of it V8's garbage collector took (on the main thread; ms per mention sent). */
  gcMsPerMention?: number;
  waitedMs: number;
}

export interface FirstSignResult {
  rate: number;
  durationMs: number;
  rows: FirstSignRow[];
}

/** The service's garbage-collection time, one series per kind of collection (seconds). */
const GC_SERIES = ['minor', 'major', 'incremental', 'weakcb'].map(
  (kind) => `nodejs_gc_duration_seconds_sum{kind="${kind}"}`,
);
const CPU_SERIES = ['process_cpu_seconds_total'];

const SERVICE_METRICS = [
  'agent_relay_inbox_depth',
  'agent_relay_outbox_depth',
  'nodejs_eventloop_lag_p99_seconds',
  'nodejs_eventloop_lag_max_seconds',
  ...CPU_SERIES,
  ...GC_SERIES,
];

/**
 * What counters in seconds (summed over `series`) grew by between two scrapes, in ms per
 * mention sent; none when no series was scraped. A series first seen after the load started
 * from zero (prom-client shows a kind of collection only once one has happened).
 */
export function msPerMention(
  before: Readonly<Record<string, number>>,
  after: Readonly<Record<string, number>>,
  series: readonly string[],
  sent: number,
): number | undefined {
  const present = series.filter((name) => after[name] !== undefined);
  if (present.length === 0 || sent === 0) return undefined;
  const grew = present.reduce((total, name) => total + (after[name] ?? 0) - (before[name] ?? 0), 0);
  return (grew * 1000) / sent;
}

/** One run of a phase: its row and the latencies behind it (merged over repeats). */
export interface PhaseRun {
  row: PhaseRow;
  ack: number[];
  seen: number[];
  firstMessage: number[];
  /** The floor runs just before and just after it. */
  floorRuns: number[][];
}

export type PhaseRow = Omit<FirstSignRow, 'floor' | 'repeats' | 'ackRatios'>;

/**
 * Slack mentions for this run's fake workspace, after a short warm-up of the process at `url`
 * (its own delivery ids, apart from the measured ones).
 */
async function warmedUp(
  ctx: ScenarioContext,
  url: string,
  urls: { slackBotUserId: string; slackTeamId: string },
): Promise<ReturnType<typeof createPayloadFactory>> {
  const s = ctx.settings.firstSign;
  const factory = createPayloadFactory({
    mix: 'slack',
    botUserId: urls.slackBotUserId,
    teamId: urls.slackTeamId,
  });
  await runOpenLoop({
    url,
    rate: s.rate,
    durationMs: s.warmupMs,
    makeRequest: (i) => factory(500_000 + i),
  });
  return factory;
}

/** One run of the bare framework at the phase's rate: its acknowledgement latencies (ms). */
async function floorAck(ctx: ScenarioContext): Promise<number[]> {
  const s = ctx.settings.firstSign;
  const proc = await startFloorProcess(ctx.workDir);
  try {
    await waitFor200(proc, '/readyz');
    const urls = await ctx.backends.rpc.call('start', {});
    const factory = await warmedUp(ctx, proc.url, urls);
    const load = await runOpenLoop({
      url: proc.url,
      rate: s.rate,
      durationMs: s.durationMs,
      makeRequest: factory,
    });
    return load.latency.slack;
  } finally {
    await proc.stop();
  }
}

async function onePhase(
  ctx: ScenarioContext,
  createLatencyMs: number,
  repeat: number,
): Promise<Omit<PhaseRun, 'floorRuns'>> {
  const s = ctx.settings.firstSign;
  const urls = await ctx.backends.rpc.call('start', {
    timings: { runMs: 60_000 },
    createLatencyMs,
  });
  // A database of its own: a run of the same latency sends the same delivery ids again.
  const name = `first-sign-${createLatencyMs}-run${repeat}`;
  const proc = await startServiceProcess({
    backends: urls,
    workDir: ctx.workDir,
    name,
    databasePath: join(ctx.workDir, `${name}.db`),
    logLevel: ctx.logLevel,
    ...(ctx.profileDir ? { profileDir: ctx.profileDir } : {}),
  });
  try {
    await waitFor200(proc, '/readyz');
    const factory = await warmedUp(ctx, proc.url, urls);
    // Resets the event-loop histogram; the CPU counter is read before and after the load.
    const before = await scrapeMetrics(proc.url, SERVICE_METRICS);
    const load = await runOpenLoop({
      url: proc.url,
      rate: s.rate,
      durationMs: s.durationMs,
      makeRequest: factory,
    });
    const depth = await scrapeMetrics(proc.url, SERVICE_METRICS);
    const measured = new Set(load.accepted.map((a) => a.threadRef));
    const createdCount = async () =>
      (await ctx.backends.rpc.call('firstSigns', null)).created.filter(([t]) => measured.has(t))
        .length;
    const withoutRunAtEnd = load.accepted.length - (await createdCount());
    // Wait for every first message and every run (bounded).
    const started = Date.now();
    await awaitFirstSigns(ctx, measured, s.drainMs + createLatencyMs, 250);
    const waitedMs = Date.now() - started;
    const signs = await ctx.backends.rpc.call('firstSigns', null);
    const seen = delaysFromDue(load.accepted, new Map(signs.seen));
    const first = delaysFromDue(load.accepted, new Map(signs.firstPost));
    const createdAt = signs.created.filter(([t]) => measured.has(t)).map(([, at]) => at);
    const firstDue = Math.min(...load.accepted.map((a) => a.dueAt));
    const from = firstDue + createLatencyMs;
    const to = from + s.durationMs;
    const inWindow = createdAt.filter((at) => at >= from && at <= to).length;
    const row: PhaseRow = {
      createLatencyMs,
      rate: s.rate,
      durationMs: s.durationMs,
      sent: load.sent,
      accepted: load.accepted.length,
      errors: Object.values(load.errors).reduce((a, b) => a + b, 0),
      ack: summarize(load.latency.slack),
      seen: seen.summary,
      firstMessage: first.summary,
      seenDelivered: seen.delivered,
      firstMessageDelivered: first.delivered,
      createdPerSecond: (inWindow * 1000) / s.durationMs,
      created: createdAt.length,
      inboxDepthAtEnd: depth.agent_relay_inbox_depth ?? Number.NaN,
      outboxDepthAtEnd: depth.agent_relay_outbox_depth ?? Number.NaN,
      loopLagP99Ms: (depth.nodejs_eventloop_lag_p99_seconds ?? Number.NaN) * 1000,
      loopLagMaxMs: (depth.nodejs_eventloop_lag_max_seconds ?? Number.NaN) * 1000,
      cpuMsPerMention: msPerMention(before, depth, CPU_SERIES, load.sent),
      gcMsPerMention: msPerMention(before, depth, GC_SERIES, load.sent),
      withoutRunAtEnd,
      waitedMs,
    };
    return { row, ack: load.latency.slack, seen: seen.delays, firstMessage: first.delays };
  } finally {
    await proc.stop();
  }
}

/** A run's ack p99 over the p99 of the two floor runs around it. */
function ratioOf(run: PhaseRun): number {
  return run.row.ack.p99 / summarize(run.floorRuns.flat()).p99;
}

/** The mean of a figure over runs; none when any run lacks it. */
function meanOf(rows: readonly PhaseRow[], pick: (r: PhaseRow) => number | undefined) {
  const values = rows.map(pick);
  if (values.length === 0 || values.some((v) => v === undefined)) return undefined;
  return values.reduce<number>((a, v) => a + (v ?? 0), 0) / values.length;
}

/** A latency's runs as one row: latencies over all of them, the worst of the rest. */
export function mergeRuns(runs: readonly PhaseRun[]): FirstSignRow {
  const rows = runs.map((r) => r.row);
  const sum = (pick: (r: PhaseRow) => number) => rows.reduce((a, r) => a + pick(r), 0);
  const most = (pick: (r: PhaseRow) => number) => Math.max(...rows.map(pick));
  const first = rows[0];
  if (first === undefined) throw new Error('no run to merge');
  // A floor run between two runs of the same latency counts once.
  const floor = [...new Set(runs.flatMap((r) => r.floorRuns))].flat();
  return {
    ...first,
    repeats: runs.length,
    sent: sum((r) => r.sent),
    accepted: sum((r) => r.accepted),
    errors: sum((r) => r.errors),
    ack: summarize(runs.flatMap((r) => r.ack)),
    floor: summarize(floor),
    ackRatios: runs.map(ratioOf),
    seen: summarize(runs.flatMap((r) => r.seen)),
    firstMessage: summarize(runs.flatMap((r) => r.firstMessage)),
    seenDelivered: sum((r) => r.seenDelivered),
    firstMessageDelivered: sum((r) => r.firstMessageDelivered),
    createdPerSecond: Math.min(...rows.map((r) => r.createdPerSecond)),
    created: sum((r) => r.created),
    inboxDepthAtEnd: most((r) => r.inboxDepthAtEnd),
    outboxDepthAtEnd: most((r) => r.outboxDepthAtEnd),
    withoutRunAtEnd: most((r) => r.withoutRunAtEnd),
    loopLagP99Ms: most((r) => r.loopLagP99Ms),
    loopLagMaxMs: most((r) => r.loopLagMaxMs),
    // The mean of the runs; none when a run lacks it (results from before it was measured).
    cpuMsPerMention: meanOf(rows, (r) => r.cpuMsPerMention),
    gcMsPerMention: meanOf(rows, (r) => r.gcMsPerMention),
    waitedMs: most((r) => r.waitedMs),
  };
}

export async function runFirstSign(ctx: ScenarioContext): Promise<FirstSignResult> {
  const s = ctx.settings.firstSign;
  const floorRun = async () => {
    const latencies = await floorAck(ctx);
    const floor = summarize(latencies);
    ctx.log(`first-sign floor: ack p50 ${floor.p50.toFixed(1)} p99 ${floor.p99.toFixed(1)} ms`);
    return latencies;
  };
  // Floor, phase, floor, phase, …, floor: each phase between two runs of the floor, the run
  // after one phase being the run before the next; the latencies in turn, `repeats` times.
  // The very first floor run is thrown away: in five full runs its p99 was 5.1-8.5 ms where
  // the other floor runs' median was about 4 ms (p50 as usual), the load generator and the
  // fakes being fresh; kept, it lifted the first latency's floor.
  await floorRun();
  const runs = new Map<number, PhaseRun[]>(s.createLatenciesMs.map((l) => [l, []]));
  let before = await floorRun();
  for (let repeat = 1; repeat <= s.repeats; repeat++) {
    for (const latency of s.createLatenciesMs) {
      const phase = await onePhase(ctx, latency, repeat);
      const after = await floorRun();
      const run: PhaseRun = { ...phase, floorRuns: [before, after] };
      runs.get(latency)?.push(run);
      before = after;
      const row = phase.row;
      ctx.log(
        `first-sign create ${latency} ms (run ${repeat}/${s.repeats}): ack p50 ${row.ack.p50.toFixed(1)} p99 ` +
          `${row.ack.p99.toFixed(1)} ms (${ratioOf(run).toFixed(2)}× the floor around it), 👀 p95 ` +
          `${row.seen.p95.toFixed(0)} ms, first message p95 ${row.firstMessage.p95.toFixed(0)} ms, ` +
          `${row.createdPerSecond.toFixed(1)} runs/s, ${row.withoutRunAtEnd} without a run at the end, ` +
          `outbox ${row.outboxDepthAtEnd} at the end, loop lag p99 ${row.loopLagP99Ms.toFixed(0)} max ` +
          `${row.loopLagMaxMs.toFixed(0)} ms, CPU ${row.cpuMsPerMention?.toFixed(1)} ms per mention (GC ${row.gcMsPerMention?.toFixed(1)})`,
      );
    }
  }
  const rows = s.createLatenciesMs.map((l) => mergeRuns(runs.get(l) ?? []));
  return { rate: s.rate, durationMs: s.durationMs, rows };
}
