/**
 * Scenario 3, footprint: resident memory and V8 heap of the service holding N tracked
 * threads (each with a live run the batch tracker follows while the runs change state), and
 * the time from spawning the process to the first `/readyz` 200: on an empty database and on
 * the N-thread one; with `npm start` (tsx) and, in the full run, the compiled build.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ScenarioContext } from '../lib/context.js';
import { sleep } from '../lib/context.js';
import { ROOT, residentBytes, scrapeMetrics, waitFor200 } from '../lib/processes.js';
import { startServiceProcess } from '../lib/service-process.js';
import type { ServiceOptions } from '../lib/service-process.js';
import { median } from '../lib/stats.js';
import { seedTrackedService } from './tracking.js';

export interface ReadyTimes {
  runner: 'tsx' | 'compiled';
  database: 'empty' | 'seeded';
  samplesMs: number[];
  medianMs: number;
}

export interface Held {
  runner: 'tsx' | 'compiled';
  /** Median of VmRSS samples over the second half of the settle window (bytes), and the largest. */
  rssBytes: number;
  rssMaxBytes: number;
  /** /metrics at the end: nodejs_heap_size_used_bytes, _total_bytes, process_resident_memory_bytes. */
  metrics: Record<string, number>;
  /** VmRSS once a second from ready to the end of the settle window (bytes). */
  rssSamples: number[];
}

export interface FootprintResult {
  threads: number;
  /** The service holding the threads, per runner (compiled: what the container runs). */
  held: Held[];
  /** RSS of an idle service (empty database), per runner. */
  idleRssBytes: Partial<Record<Held['runner'], number>>;
  ready: ReadyTimes[];
}

const HEAP_METRICS = [
  'nodejs_heap_size_used_bytes',
  'nodejs_heap_size_total_bytes',
  'process_resident_memory_bytes',
];

const run = promisify(execFile);

export async function runFootprint(ctx: ScenarioContext): Promise<FootprintResult> {
  const s = ctx.settings.footprint;
  const ready: ReadyTimes[] = [];
  const idleRssBytes: FootprintResult['idleRssBytes'] = {};
  const urls = await ctx.backends.rpc.call('start', {});
  const runners: { runner: Held['runner']; entry?: string }[] = [{ runner: 'tsx' }];
  if (s.compiled) runners.unshift({ runner: 'compiled', entry: await buildCompiled(ctx) });

  // Start-ups on an empty database.
  for (const { runner, entry } of runners) {
    const idle = await timeStarts(ctx, runner, s.readyRepeats, (i) => ({
      backends: urls,
      workDir: ctx.workDir,
      name: `ready-${runner}-${i}`,
      databasePath: join(ctx.workDir, `ready-${runner}-${i}.db`),
      logLevel: ctx.logLevel,
      ...(entry ? { entry } : {}),
    }));
    ready.push(idle.times);
    idleRssBytes[runner] = idle.idleRss;
  }
  // N tracked threads, the batch tracker following them while they change state.
  const held: Held[] = [];
  for (const { runner, entry } of runners) {
    const { result, readyMs } = await holdThreads(ctx, runner, entry);
    held.push(result);
    ready.push({ runner, database: 'seeded', samplesMs: [readyMs], medianMs: readyMs });
  }
  return { threads: s.threads, held, idleRssBytes, ready };
}

async function holdThreads(
  ctx: ScenarioContext,
  runner: Held['runner'],
  entry: string | undefined,
): Promise<{ result: Held; readyMs: number }> {
  const s = ctx.settings.footprint;
  const proc = await seedTrackedService(ctx, {
    n: s.threads,
    mode: 'batch',
    name: `footprint-${s.threads}-${runner}`,
    seed: 7,
    ...(entry ? { entry } : {}),
  });
  try {
    const readyAt = await waitFor200(proc, '/readyz');
    await ctx.backends.rpc.call('startChanges', {
      perRunMeanIntervalMs: ctx.settings.tracking.perRunMeanIntervalMs,
      seed: 8,
    });
    const samples: number[] = [];
    const until = Date.now() + s.settleMs;
    while (Date.now() < until) {
      await sleep(1_000);
      samples.push(residentBytes(proc.pid));
    }
    await ctx.backends.rpc.call('stopChanges', null);
    const metrics = await scrapeMetrics(proc.url, HEAP_METRICS);
    const late = samples.slice(Math.floor(samples.length / 2));
    ctx.log(
      `footprint N=${s.threads} (${runner}): RSS ${(median(late) / 2 ** 20).toFixed(0)} MiB, ` +
        `heap used ${((metrics.nodejs_heap_size_used_bytes ?? NaN) / 2 ** 20).toFixed(0)} MiB`,
    );
    return {
      result: {
        runner,
        rssBytes: median(late),
        rssMaxBytes: Math.max(...samples),
        metrics,
        rssSamples: samples,
      },
      readyMs: readyAt - proc.spawnedAt,
    };
  } finally {
    await proc.stop();
  }
}

async function timeStarts(
  ctx: ScenarioContext,
  runner: ReadyTimes['runner'],
  repeats: number,
  options: (i: number) => ServiceOptions,
): Promise<{ times: ReadyTimes; idleRss: number }> {
  const samplesMs: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const proc = await startServiceProcess(options(i));
    try {
      const readyAt = await waitFor200(proc, '/readyz');
      samplesMs.push(readyAt - proc.spawnedAt);
      await sleep(1_000);
      rss.push(residentBytes(proc.pid));
    } finally {
      await proc.stop();
    }
  }
  ctx.log(`ready (${runner}, empty database): ${samplesMs.map((x) => x.toFixed(0)).join(', ')} ms`);
  return {
    times: { runner, database: 'empty', samplesMs, medianMs: median(samplesMs) },
    idleRss: median(rss),
  };
}

/** `tsc -p tsconfig.build.json` into a scratch directory under node_modules/.cache. */
async function buildCompiled(ctx: ScenarioContext): Promise<string> {
  const outDir = join(ROOT, 'node_modules/.cache/agent-relay-bench/dist');
  mkdirSync(outDir, { recursive: true });
  ctx.log('building the compiled service (tsc -p tsconfig.build.json) for the start-up timing…');
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const args = [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', outDir];
  // Type errors still emit JavaScript (noEmitOnError is off); only a missing entry is fatal.
  await run(process.execPath, args, { cwd: ROOT }).catch((err: unknown) => {
    ctx.log(`tsc reported problems (the build still emitted): ${String(err).slice(0, 300)}`);
  });
  const entry = join(outDir, 'cli.js');
  if (!existsSync(entry)) throw new Error(`tsc produced no ${entry}`);
  return entry;
}
