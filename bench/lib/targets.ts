/**
 * The benchmark targets (docs/performance.md), judged from the results. A target whose scenario
 * did not run, or ran at other sizes (the quick run), is "not measured" rather than met or missed.
 *
 * The acknowledgement targets are absolute: what Slack and GitHub (and so a person) could ever
 * notice. The ratio to the bare-framework floor is shown beside the figure and in the tables,
 * but it is not a target.
 */
import type { BenchResults } from './results.js';

/** PROGRESS_READS_PER_MINUTE as shipped (the bench leaves it at its default). */
const PROGRESS_BUDGET = 60;

/** Requests a minute for the states alone (results written before progress reads count all). */
function stateRpm(run: { requestsPerMinute: number; statePerMinute?: number }): number {
  return run.statePerMinute ?? run.requestsPerMinute;
}

/**
 * The progress reads alone: the batch tracker's reads of what the agent did, less those the
 * same tracker makes with progress off (the final words of the runs that end).
 */
function progressRpm(
  run: { n: number; progressPerMinute?: number },
  results: BenchResults,
): number {
  const off = results.scenarios.tracking?.result.runs.find(
    (r) => r.n === run.n && r.mode === 'batch-progress-off',
  );
  return Math.max(0, (run.progressPerMinute ?? 0) - (off?.progressPerMinute ?? 0));
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean | undefined;
}

const MB = 1_000_000;
const runnerName = (r: 'tsx' | 'compiled') =>
  r === 'compiled' ? 'node dist/cli.js, as the container runs' : 'npm start (tsx)';
const fmt = (v: number | null | undefined, digits = 1) =>
  v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(digits);

/** Acknowledgement p99 at 300 events/s: SQLite (one process). */
export const ACK_P99_SQLITE_MS = 50;
/** Acknowledgement p99 at 300 events/s: PostgreSQL, one replica. */
export const ACK_P99_POSTGRES_MS = 150;

/** Capacity of one replica: Slack mentions a second sustained (first message p95 ≤ 1 s). */
export const CAPACITY_MENTIONS_PER_SECOND = 150;

export function checkTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const ingest = results.scenarios.ingest?.result;
  const at300 = ingest?.rows.find((r) => r.rate === 300);
  checks.push({
    target: `Ingest (SQLite): acknowledgement p99 at 300 events/s ≤ ${ACK_P99_SQLITE_MS} ms`,
    measured: at300
      ? `${fmt(at300.ours.p99)} ms (bare-framework floor ${fmt(at300.floor.p99)} ms, ` +
        `${fmt(at300.p99Ratio, 2)}×, reported only)`
      : 'not measured',
    met: at300 ? at300.ours.p99 <= ACK_P99_SQLITE_MS : undefined,
  });
  checks.push({
    target: 'Ingest at 300 events/s: zero errors',
    measured: at300 ? `${at300.oursErrors} errors` : 'not measured',
    met: at300 ? at300.oursErrors === 0 : undefined,
  });

  const scaleout = results.scenarios.scaleout?.result;
  const pg300 = scaleout?.ingest.find((r) => r.replicas === 1 && r.offeredRate === 300);
  checks.push({
    target:
      `Ingest (PostgreSQL, one replica): acknowledgement p99 at 300 events/s ≤ ` +
      `${ACK_P99_POSTGRES_MS} ms, zero errors`,
    measured: pg300
      ? `${fmt(pg300.latency.p99)} ms, ${pg300.errors} errors (${fmt(pg300.answeredPerSecond, 0)} answered/s)`
      : 'not measured',
    met: pg300 ? pg300.latency.p99 <= ACK_P99_POSTGRES_MS && pg300.errors === 0 : undefined,
  });

  const tracking = results.scenarios.tracking?.result;
  const batch = tracking?.runs.find((r) => r.n === 1000 && r.mode === 'batch');
  // "At the same delay": per-run polling without back-off when measured, else as shipped.
  const perRun =
    tracking?.runs.find((r) => r.n === 1000 && r.mode === 'per-run-fixed') ??
    tracking?.runs.find((r) => r.n === 1000 && r.mode === 'per-run');
  checks.push({
    target: 'Tracking 1,000 live runs: ≤ 60 service requests/min (besides progress reads)',
    measured: batch ? `${fmt(stateRpm(batch), 0)} req/min` : 'not measured',
    met: batch ? stateRpm(batch) <= 60 : undefined,
  });
  checks.push({
    target: `Tracking 1,000 live runs: progress reads within their budget (${PROGRESS_BUDGET}/min)`,
    measured: batch ? `${fmt(progressRpm(batch, results), 0)} reads/min` : 'not measured',
    // The bucket holds two seconds' worth on top of the rate.
    met: batch
      ? progressRpm(batch, results) <=
        PROGRESS_BUDGET + 2 * (PROGRESS_BUDGET / 60) * (60_000 / batch.windowMs)
      : undefined,
  });
  checks.push({
    target: 'Tracking 1,000 live runs: p95 state change → message ≤ 5 s',
    measured: batch ? `${fmt(batch.delay.p95 / 1000, 2)} s` : 'not measured',
    met: batch ? batch.delay.p95 !== null && batch.delay.p95 <= 5_000 : undefined,
  });
  const ratio = batch && perRun ? perRun.requestsPerMinute / stateRpm(batch) : undefined;
  checks.push({
    target: 'Tracking 1,000 live runs: ≥ 100× fewer requests than per-run polling',
    measured:
      batch && perRun
        ? `${fmt(ratio, 1)}× (per-run${perRun.mode === 'per-run-fixed' ? ' without back-off' : ''} ` +
          `${fmt(perRun.requestsPerMinute, 0)} req/min, its p95 ` +
          `${perRun.delay.p95 === null || !Number.isFinite(perRun.delay.p95) ? 'unbounded' : `${fmt(perRun.delay.p95 / 1000, 1)} s`})`
        : 'not measured',
    met: ratio === undefined ? undefined : ratio >= 100,
  });

  const footprint = results.scenarios.footprint?.result;
  const full = footprint?.threads === 10_000 ? footprint : undefined;
  const held = full?.held.find((h) => h.runner === 'compiled') ?? full?.held[0];
  const tsxHeld = full?.held.find((h) => h.runner === 'tsx');
  checks.push({
    target: '10,000 tracked threads: resident memory ≤ 200 MB',
    measured: held
      ? `peak ${fmt(held.rssMaxBytes / MB, 0)} MB, settled ${fmt(held.rssBytes / MB, 0)} MB ` +
        `(${runnerName(held.runner)})` +
        (tsxHeld && tsxHeld !== held
          ? `; npm start (tsx): peak ${fmt(tsxHeld.rssMaxBytes / MB, 0)} MB, settled ` +
            `${fmt(tsxHeld.rssBytes / MB, 0)} MB`
          : '')
      : 'not measured',
    // "At most": the peak over the window, not a typical sample.
    met: held ? held.rssMaxBytes <= 200 * MB : undefined,
  });
  const compiled = full?.ready.find((r) => r.runner === 'compiled' && r.database === 'empty');
  const tsx = full?.ready.find((r) => r.runner === 'tsx' && r.database === 'empty');
  const readyJudged = compiled ?? tsx;
  checks.push({
    target: 'Ready (process start → /readyz 200) ≤ 1.5 s',
    measured: readyJudged
      ? `${fmt(readyJudged.medianMs / 1000, 2)} s (${runnerName(readyJudged.runner)})` +
        (compiled && tsx ? `; npm start (tsx): ${fmt(tsx.medianMs / 1000, 2)} s` : '')
      : 'not measured',
    met: readyJudged ? readyJudged.medianMs <= 1_500 : undefined,
  });
  const first = results.scenarios['first-sign']?.result;
  // Judged when every latency of the issue ran (not the quick run's two); a shorter load than
  // 30 s (`--seconds`, a busy machine) is named in the figure.
  const latencies = new Set(first?.rows.map((r) => r.createLatencyMs));
  const fullSign =
    first && [0, 1_000, 3_000, 10_000].every((l) => latencies.has(l)) ? first : undefined;
  const load = fullSign ? `, ${fmt(fullSign.durationMs / 1000, 0)} s of load per latency` : '';
  const worst = (pick: (r: NonNullable<typeof first>['rows'][number]) => number) =>
    fullSign ? Math.max(...fullSign.rows.map(pick)) : undefined;
  const seenP95 = worst((r) => r.seen.p95);
  checks.push({
    target: 'First sign: 👀 p95 ≤ 1 s at every create latency (0, 1, 3, 10 s)',
    measured: seenP95 === undefined ? 'not measured' : `worst ${fmt(seenP95, 0)} ms${load}`,
    met: seenP95 === undefined ? undefined : seenP95 <= 1_000,
  });
  const firstP95 = worst((r) => r.firstMessage.p95);
  checks.push({
    target: 'First sign: first message p95 ≤ 1.5 s at every create latency',
    measured: firstP95 === undefined ? 'not measured' : `worst ${fmt(firstP95, 0)} ms${load}`,
    met: firstP95 === undefined ? undefined : firstP95 <= 1_500,
  });
  const slowest = fullSign ? Math.min(...fullSign.rows.map((r) => r.createdPerSecond)) : undefined;
  checks.push({
    target: 'First sign: runs created at the offered rate once the service answers',
    measured:
      slowest === undefined || !fullSign
        ? 'not measured'
        : `slowest ${fmt(slowest, 1)}/s of ${fullSign.rate}/s offered${load}`,
    met: slowest === undefined || !fullSign ? undefined : slowest >= fullSign.rate * 0.95,
  });
  // Judged from any run but the quick one (its few mentions measure start-up, not a mention),
  // and on SQLite: a `--postgres` run is an A/B of another configuration.
  const floor = results.scenarios.floor;
  const floorRun =
    floor && !floor.quick && floor.result.database === undefined ? floor.result : undefined;
  checks.push({
    target: 'CPU per mention ≤ 1.5× the bare app doing the same outside work (same run)',
    measured: floorRun
      ? `${fmt(floorRun.cpuRatio, 2)}× at ${floorRun.rate}/s, create held ${fmt(floorRun.createLatencyMs / 1000, 1)} s` +
        (floorRun.rows.some((row) => (row.unfinished ?? 0) > 0)
          ? ' (not comparable: a window closed with runs still to come)'
          : '')
      : 'not measured',
    // A subject whose window closed with work to come measured part of it: no verdict.
    met:
      floorRun && !floorRun.rows.some((row) => (row.unfinished ?? 0) > 0)
        ? floorRun.cpuRatio <= 1.5
        : undefined,
  });
  const relayLadder = floorRun?.ladder.find((l) => l.subject === 'relay');
  const bareLadder = floorRun?.ladder.find((l) => l.subject === 'bare');
  checks.push({
    target: `Capacity (SQLite), one replica: ≥ ${CAPACITY_MENTIONS_PER_SECOND} mentions/s with first message p95 ≤ 1 s`,
    measured: relayLadder
      ? `${relayLadder.highest}/s` + (bareLadder ? ` (bare app: ${bareLadder.highest}/s)` : '')
      : 'not measured',
    met: relayLadder ? relayLadder.highest >= CAPACITY_MENTIONS_PER_SECOND : undefined,
  });
  // The same ladder on PostgreSQL (scaleout), judged from any run but the quick one too.
  const capacity = results.scenarios.scaleout?.quick ? undefined : scaleout?.capacity;
  const oneReplica = capacity?.find((c) => c.replicas === 1);
  const more = capacity?.filter((c) => c.replicas > 1) ?? [];
  checks.push({
    target:
      `Capacity (PostgreSQL), one replica: ≥ ${CAPACITY_MENTIONS_PER_SECOND} mentions/s with ` +
      'first message p95 ≤ 1 s',
    measured: oneReplica
      ? `${oneReplica.highest}/s` +
        (more.length > 0
          ? ` (${more.map((c) => `${c.replicas} replicas: ${c.highest}/s`).join(', ')}, reported only)`
          : '')
      : 'not measured',
    met: oneReplica ? oneReplica.highest >= CAPACITY_MENTIONS_PER_SECOND : undefined,
  });
  // Judged when both latencies ran (the quick run holds the create for 1 s, not 10 s).
  const linear = results.scenarios['linear-first']?.result;
  const heldFor = new Set(linear?.rows.map((r) => r.createLatencyMs));
  const fullLinear = linear && [0, 10_000].every((l) => heldFor.has(l)) ? linear : undefined;
  const linearP99 = fullLinear
    ? Math.max(...fullLinear.rows.map((r) => r.firstActivity.p99))
    : undefined;
  checks.push({
    target: 'Linear: first activity p99 ≤ 3 s with the create held 0 and 10 s (Linear: 10 s)',
    measured:
      linearP99 === undefined || !fullLinear
        ? 'not measured'
        : `worst ${fmt(linearP99, 0)} ms, ${fullLinear.rate}/s for ${fmt(fullLinear.durationMs / 1000, 0)} s per latency`,
    met: linearP99 === undefined ? undefined : linearP99 <= 3_000,
  });
  const teams = results.scenarios['teams-first']?.result;
  const held3s = teams?.rows.find((r) => r.createLatencyMs === 3_000);
  checks.push({
    target: 'Teams: first sign (the status card) p95 ≤ 1 s with the create held 3 s',
    measured:
      held3s === undefined || !teams
        ? 'not measured'
        : `${fmt(held3s.firstSign.p95, 0)} ms, ${held3s.delivered}/${held3s.sent} delivered, ${teams.rate}/s for ${fmt(teams.durationMs / 1000, 0)} s`,
    met: held3s === undefined ? undefined : held3s.firstSign.p95 <= 1_000,
  });
  return checks;
}
