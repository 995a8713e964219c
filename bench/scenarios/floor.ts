/**
 * The floor: agent-relay against a bare app doing the same outside work for a Slack mention
 * (children/floor-work-app.ts: Bolt's signature check, a SQLite insert, reactions.add,
 * chat.postMessage, the run's create, a SQLite write, chat.update), in the same run.
 *
 * - CPU per mention: each subject in turn (bare, relay, and with `--baseline DIR` the relay
 *   from another source tree), `repeats` times, Slack mentions each in its own thread at
 *   `rate` for `durationMs`; the process's CPU time (all threads, from /proc) from the load's
 *   start until every first message and run arrived, over the mentions sent. Medians over the
 *   repeats; the relay's over the bare app's is the ratio the target is about.
 * - Capacity ladder: each subject at rising rates, `ladder.durationMs` each, up to the first
 *   rate whose first message p95 (from when the mention was due) exceeds 1 s: the highest
 *   rate below it is the capacity.
 * - With `--postgres` the relay (both trees) runs on a PostgreSQL server started for the
 *   scenario, a fresh database per run; the bare app keeps its SQLite file.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createDatabase, startPostgres } from '../../test/store/postgres-server.js';
import type { BackendUrls } from '../children/backends-api.js';
import { climbLadder, describeRung, measureMentions, mentionBackends } from '../lib/capacity.js';
import type { Ladder, MentionRun } from '../lib/capacity.js';
import type { ScenarioContext } from '../lib/context.js';
import { ROOT, startWorkFloorProcess, waitFor200 } from '../lib/processes.js';
import type { ServiceProcess } from '../lib/processes.js';
import { startServiceProcess } from '../lib/service-process.js';
import { median } from '../lib/stats.js';

export type FloorSubject = 'bare' | 'relay' | 'baseline';

export interface FloorRun extends MentionRun {
  subject: FloorSubject;
  rate: number;
  durationMs: number;
  createLatencyMs: number;
}

export interface FloorRow {
  subject: FloorSubject;
  runs: number;
  /** Medians over the runs. */
  cpuMsPerMention: number;
  cpuSamples: number[];
  rssPeakMb: number;
  ackP99: number;
  seenP95: number;
  firstMessageP95: number;
  firstMessageP50: number;
  errors: number;
  /** Calls to Slack and the service per mention, by kind: medians over the runs. */
  outsideCallsPerMention?: Record<string, number>;
  /**
   * Runs whose window closed before every mention had its first message and its run (the
   * drain time ran out): their CPU per mention leaves out the work still to come, so it is
   * not comparable with a subject that finished (none in older results).
   */
  unfinished?: number;
}

export interface FloorLadder extends Ladder {
  subject: FloorSubject;
}

export interface FloorResult {
  rate: number;
  durationMs: number;
  createLatencyMs: number;
  /** The source tree of the `baseline` subject, when there was one. */
  baseline?: string;
  /** The relay's database (`--postgres`); SQLite when absent. */
  database?: 'postgresql';
  rows: FloorRow[];
  /** The relay's median CPU per mention over the bare app's. */
  cpuRatio: number;
  /** The baseline's median CPU per mention over the relay's (this tree's). */
  baselineCpuRatio?: number;
  ladder: FloorLadder[];
  ladderDurationMs: number;
}

async function startSubject(
  ctx: ScenarioContext,
  subject: FloorSubject,
  name: string,
  urls: BackendUrls,
): Promise<ServiceProcess> {
  if (subject === 'bare') {
    return startWorkFloorProcess({
      workDir: ctx.workDir,
      name,
      agentBaseUrl: urls.agentBaseUrl,
      agentKey: urls.agentKey,
      slackApiUrl: urls.slackApiUrl,
    });
  }
  const root = subject === 'baseline' && ctx.baseline ? ctx.baseline : ROOT;
  return startServiceProcess({
    backends: urls,
    workDir: ctx.workDir,
    name,
    databasePath: postgresUrl
      ? await createDatabase(postgresUrl, dbName(name))
      : join(ctx.workDir, `${name}.db`),
    logLevel: ctx.logLevel,
    // Each tree runs with the node options its container would (src/service/node-options.ts).
    env: { NODE_OPTIONS: await nodeOptionsOf(root) },
    ...(subject === 'baseline' && ctx.baseline ? { root: ctx.baseline } : {}),
    ...(ctx.profileDir ? { profileDir: ctx.profileDir } : {}),
  });
}

/** A source tree's container node options (none when it has no such file). */
async function nodeOptionsOf(root: string): Promise<string> {
  try {
    const url = pathToFileURL(join(root, 'src/service/node-options.ts')).href;
    const mod = (await import(url)) as { RUNTIME_NODE_OPTIONS?: string };
    return mod.RUNTIME_NODE_OPTIONS ?? '';
  } catch {
    return '';
  }
}

let serial = 0;
/** `--postgres`: the server the relay's databases are made on, for the scenario's length. */
let postgresUrl: string | undefined;
const dbName = (name: string) => `bench_${name.replace(/[^a-z0-9]/g, '_')}_${process.pid}`;

/** One subject at one rate: a fresh database and fresh backends. */
export async function floorRun(
  ctx: ScenarioContext,
  subject: FloorSubject,
  load: { rate: number; durationMs: number; createLatencyMs: number },
): Promise<FloorRun> {
  const urls = await ctx.backends.rpc.call('start', mentionBackends(load.createLatencyMs));
  serial += 1;
  const proc = await startSubject(ctx, subject, `floor-${subject}-${load.rate}-${serial}`, urls);
  try {
    await waitFor200(proc, '/readyz');
    const run = await measureMentions(
      ctx,
      {
        urls: [proc.url],
        pids: [proc.pid],
        botUserId: urls.slackBotUserId,
        teamId: urls.slackTeamId,
      },
      load,
    );
    return { subject, ...load, ...run };
  } finally {
    await proc.stop();
  }
}

function rowOf(subject: FloorSubject, runs: FloorRun[]): FloorRow {
  const cpu = runs.map((r) => r.cpuMsPerMention);
  return {
    subject,
    runs: runs.length,
    cpuMsPerMention: median(cpu),
    cpuSamples: cpu,
    rssPeakMb: median(runs.map((r) => r.rssPeakMb)),
    ackP99: median(runs.map((r) => r.ack.p99)),
    seenP95: median(runs.map((r) => r.seen.p95)),
    firstMessageP95: median(runs.map((r) => r.firstMessage.p95)),
    firstMessageP50: median(runs.map((r) => r.firstMessage.p50)),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    outsideCallsPerMention: medianByKind(runs.map((r) => r.outsideCallsPerMention ?? {})),
    unfinished: runs.filter(unfinished).length,
  };
}

/**
 * A run whose window closed with first messages or runs still to come, of the mentions the
 * subject accepted (a refused one is counted in the errors instead).
 */
function unfinished(run: FloorRun): boolean {
  const accepted = run.firstMessage.n;
  return run.firstMessageDelivered < accepted || run.created < accepted;
}

function medianByKind(samples: Record<string, number>[]): Record<string, number> {
  const kinds = new Set(samples.flatMap((x) => Object.keys(x)));
  return Object.fromEntries([...kinds].map((k) => [k, median(samples.map((x) => x[k] ?? 0))]));
}

async function climb(
  ctx: ScenarioContext,
  subject: FloorSubject,
  createLatencyMs: number,
): Promise<FloorLadder> {
  const { rates, durationMs } = ctx.settings.floor.ladder;
  const ladder = await climbLadder(
    rates,
    (rate) => floorRun(ctx, subject, { rate, durationMs, createLatencyMs }),
    (rung) => ctx.log(`floor ladder ${subject} ${describeRung(rung)}`),
  );
  return { subject, ...ladder };
}

export async function runFloor(ctx: ScenarioContext): Promise<FloorResult> {
  if (!ctx.postgres) return measureFloor(ctx);
  const server = await startPostgres();
  if (!server) throw new Error('floor --postgres: no PostgreSQL server binaries (initdb)');
  postgresUrl = server.url;
  try {
    return { ...(await measureFloor(ctx)), database: 'postgresql' };
  } finally {
    postgresUrl = undefined;
    await server.stop();
  }
}

async function measureFloor(ctx: ScenarioContext): Promise<FloorResult> {
  const s = ctx.settings.floor;
  const subjects: FloorSubject[] = ctx.baseline ? ['bare', 'relay', 'baseline'] : ['bare', 'relay'];
  const load = {
    rate: s.rate,
    durationMs: s.durationMs,
    createLatencyMs: s.createLatencyMs,
  };
  const runs = new Map<FloorSubject, FloorRun[]>(subjects.map((x) => [x, []]));
  for (let repeat = 1; repeat <= s.repeats; repeat++) {
    // In turn, starting one later each time, so no subject always runs first.
    for (let i = 0; i < subjects.length; i++) {
      const subject = subjects[(i + repeat - 1) % subjects.length] ?? 'relay';
      const run = await floorRun(ctx, subject, load);
      runs.get(subject)?.push(run);
      ctx.log(
        `floor ${subject} (run ${repeat}/${s.repeats}, ${s.rate}/s, create ${s.createLatencyMs} ms): ` +
          `CPU ${run.cpuMsPerMention.toFixed(2)} ms per mention, 👀 p95 ${run.seen.p95.toFixed(0)} ms, ` +
          `first message p95 ${run.firstMessage.p95.toFixed(0)} ms, ack p99 ${run.ack.p99.toFixed(1)} ms` +
          (unfinished(run)
            ? `; UNFINISHED when its window closed: ${run.created} runs and ` +
              `${run.firstMessageDelivered} first messages of ${run.firstMessage.n} (CPU not comparable)`
            : ''),
      );
    }
  }
  const rows = subjects.map((x) => rowOf(x, runs.get(x) ?? []));
  const cpu = (x: FloorSubject) => rows.find((r) => r.subject === x)?.cpuMsPerMention ?? Number.NaN;
  const ladder: FloorLadder[] = [];
  if (s.ladder.rates.length > 0) {
    for (const subject of subjects) ladder.push(await climb(ctx, subject, s.createLatencyMs));
  }
  return {
    rate: s.rate,
    durationMs: s.durationMs,
    createLatencyMs: s.createLatencyMs,
    ...(ctx.baseline ? { baseline: ctx.baseline } : {}),
    rows,
    cpuRatio: cpu('relay') / cpu('bare'),
    ...(ctx.baseline ? { baselineCpuRatio: cpu('baseline') / cpu('relay') } : {}),
    ladder,
    ladderDurationMs: s.ladder.durationMs,
  };
}
