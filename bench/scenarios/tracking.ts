/**
 * Scenario 2, tracking: the emulator holds N live runs that the service tracks (seeded in
 * both, as a long-running service would hold them), and changes their states at random
 * times. Per mode (batch tracker, per-run polling), side by side on the same N: requests per
 * minute the service sends to the Agent Run Service, and the delay from each change (the
 * emulator's timestamp) to the Slack/GitHub edit that shows it (the fake API's receipt).
 * The batch tracker runs as shipped, progress on (the agent's steps read within their own
 * budget); at the same-delay sizes also with progress off, so its delay can be compared.
 */
import { join } from 'node:path';
import type { StateChange, TrackingDelays } from '../children/backends-api.js';
import type { ScenarioContext } from '../lib/context.js';
import { sleep } from '../lib/context.js';
import { waitFor200 } from '../lib/processes.js';
import { startServiceProcess } from '../lib/service-process.js';
import { seedStore } from '../lib/seed-store.js';
import { summarize } from '../lib/stats.js';
import type { Summary } from '../lib/stats.js';

/**
 * `batch` and `per-run` are TRACKER_MODE as shipped (per-run backs off to 30 s on quiet
 * runs); `per-run-fixed` polls every run every POLL_INTERVAL_MS (no back-off): per-run
 * polling at the batch tracker's delay.
 */
export type TrackerMode = 'batch' | 'batch-progress-off' | 'per-run' | 'per-run-fixed';
const FIXED_ENTRY = 'bench/children/service-fixed-interval.ts';

export interface TrackingRun {
  n: number;
  mode: TrackerMode;
  windowMs: number;
  graceMs: number;
  /** Requests to the Agent Run Service during the window, by route. */
  requests: Record<string, number>;
  requestsPerMinute: number;
  listPerMinute: number;
  detailPerMinute: number;
  /**
   * Reads of what the agent did a minute: progress (its own budget) and each ended run's final
   * words (conversation and timeline; in batch mode the details the progress poller needs).
   */
  progressPerMinute: number;
  /** Everything else a minute: what tracking the states costs. */
  statePerMinute: number;
  changes: number;
  /** Change -> message delay (ms); changes never shown count as infinitely late. */
  delay: Summary;
  delaySlack: Summary;
  delayGithub: Summary;
  missing: number;
  superseded: number;
}

export interface TrackingResult {
  perRunMeanIntervalMs: number;
  pollIntervalMs: number;
  githubShare: number;
  runs: TrackingRun[];
}

export async function runTracking(ctx: ScenarioContext): Promise<TrackingResult> {
  const s = ctx.settings.tracking;
  const runs: TrackingRun[] = [];
  for (const n of s.sizes) {
    const modes: TrackerMode[] = ['batch', 'per-run'];
    if (s.sameDelaySizes.includes(n)) modes.push('batch-progress-off', 'per-run-fixed');
    for (const mode of modes) {
      const run = await trackOnce(ctx, n, mode);
      ctx.log(
        `tracking N=${n} ${mode}: ${run.requestsPerMinute.toFixed(0)} req/min ` +
          `(list ${run.listPerMinute.toFixed(0)}, detail ${run.detailPerMinute.toFixed(0)}, ` +
          `progress ${run.progressPerMinute.toFixed(0)}), ` +
          `${run.changes} changes, delay p50 ${run.delay.p50.toFixed(0)} p95 ${run.delay.p95.toFixed(0)} ms, ` +
          `missing ${run.missing}`,
      );
      runs.push(run);
    }
  }
  return {
    perRunMeanIntervalMs: s.perRunMeanIntervalMs,
    pollIntervalMs: s.pollIntervalMs,
    githubShare: s.githubShare,
    runs,
  };
}

export async function seedTrackedService(
  ctx: ScenarioContext,
  input: { n: number; mode: TrackerMode; name: string; seed: number; entry?: string },
) {
  const { rpc } = ctx.backends;
  const urls = await rpc.call('start', {});
  const seeded = await rpc.call('seedTracked', {
    n: input.n,
    githubShare: ctx.settings.tracking.githubShare,
    seed: input.seed,
  });
  const databasePath = join(ctx.workDir, `${input.name}.db`);
  const fixed = input.mode === 'per-run-fixed';
  await seedStore(databasePath, seeded, {
    seed: input.seed,
    ...(fixed ? { checkIntervalMs: ctx.settings.tracking.pollIntervalMs } : {}),
  });
  const proc = await startServiceProcess({
    backends: urls,
    workDir: ctx.workDir,
    name: input.name,
    databasePath,
    trackerMode:
      input.mode === 'batch' || input.mode === 'batch-progress-off' ? 'batch' : 'per-run',
    ...(input.mode === 'batch-progress-off' ? { progressReadsPerMinute: 0 } : {}),
    pollIntervalMs: ctx.settings.tracking.pollIntervalMs,
    logLevel: ctx.logLevel,
    ...(ctx.profileDir ? { profileDir: ctx.profileDir } : {}),
    ...(fixed ? { entry: FIXED_ENTRY } : input.entry ? { entry: input.entry } : {}),
  });
  return proc;
}

function grace(s: ScenarioContext['settings']['tracking'], mode: TrackerMode): number {
  return mode === 'per-run' ? s.graceMs['per-run'] : s.graceMs.batch;
}

async function trackOnce(ctx: ScenarioContext, n: number, mode: TrackerMode): Promise<TrackingRun> {
  const s = ctx.settings.tracking;
  const { rpc } = ctx.backends;
  const proc = await seedTrackedService(ctx, { n, mode, name: `tracking-${n}-${mode}`, seed: n });
  let changes: StateChange[];
  let requests: Record<string, number>;
  let delays: TrackingDelays;
  try {
    await waitFor200(proc, '/readyz');
    const batchMode = mode === 'batch' || mode === 'batch-progress-off';
    await sleep(s.warmupMs + (batchMode ? (s.progressWarmupMs ?? 0) : 0));
    await rpc.call('agentRequests', { reset: true });
    await rpc.call('startChanges', { perRunMeanIntervalMs: s.perRunMeanIntervalMs, seed: n + 1 });
    await sleep(s.windowMs);
    changes = await rpc.call('stopChanges', null);
    requests = await rpc.call('agentRequests', { reset: false });
    await sleep(grace(s, mode));
    delays = await rpc.call('trackingDelays', { changes });
  } finally {
    await proc.stop();
  }
  const perMinute = (count: number) => (count * 60_000) / s.windowMs;
  const total = Object.values(requests).reduce((a, b) => a + b, 0);
  // What the agent did (progress, and the final words of each run that ends) is read from the
  // conversation and timeline; in batch mode the detail reads are the progress poller's too
  // (it builds a status message from a run's detail the first time it shows that run; the
  // batch tracker fetches details only of summary list items, which the emulator never sends).
  const batchMode = mode === 'batch' || mode === 'batch-progress-off';
  const progressReads =
    (requests['GET /agent/runs/:id/conversation'] ?? 0) +
    (requests['GET /agent/runs/:id/timeline'] ?? 0) +
    (batchMode ? (requests['GET /agent/runs/:id'] ?? 0) : 0);
  const late = (xs: number[], extra: number) => [...xs, ...Array<number>(extra).fill(Infinity)];
  const unshown = delays.missing;
  return {
    n,
    mode,
    windowMs: s.windowMs,
    graceMs: grace(s, mode),
    requests,
    requestsPerMinute: perMinute(total),
    listPerMinute: perMinute(requests['GET /agent/runs'] ?? 0),
    detailPerMinute: perMinute(requests['GET /agent/runs/:id'] ?? 0),
    progressPerMinute: perMinute(progressReads),
    statePerMinute: perMinute(total - progressReads),
    changes: changes.length,
    delay: summarize(late([...delays.slack, ...delays.github], unshown)),
    delaySlack: summarize(delays.slack),
    delayGithub: summarize(delays.github),
    missing: delays.missing,
    superseded: delays.superseded,
  };
}
