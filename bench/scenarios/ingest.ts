/**
 * Scenario 1, ingest: signed Slack app_mention events and GitHub issue_comment webhooks
 * (half each) at fixed arrival rates against agent-relay and, side by side in the same run,
 * against the bare-framework floor. Repeated with alternating order; medians reported. Then
 * a ladder of higher rates finds the highest one agent-relay sustains.
 */
import type { ScenarioContext } from '../lib/context.js';
import { median, medianSummary } from '../lib/stats.js';
import type { Summary } from '../lib/stats.js';
import { runIngestPhase } from './ingest-phase.js';
import type { PhaseResult } from './ingest-phase.js';

/** What "sustainable" means for the ladder. */
export const SUSTAINABLE = {
  maxP99Ms: 3_000,
  minAchievedShare: 0.95,
  description:
    'no errors, at least 95% of the offered rate answered, and p99 acknowledgement within ' +
    "Slack's 3 s deadline",
} as const;

export interface IngestRow {
  rate: number;
  floor: Summary;
  ours: Summary;
  oursSlack: Summary;
  oursGithub: Summary;
  /** Median over repeats of (our p99 / the floor's p99 in the same repeat). */
  p99Ratio: number;
  floorErrors: number;
  oursErrors: number;
  floorAchieved: number;
  oursAchieved: number;
}

export interface IngestResult {
  phases: PhaseResult[];
  rows: IngestRow[];
  max: {
    criterion: string;
    ladder: PhaseResult[];
    /** Highest offered rate that met the criterion (undefined: none on the ladder did). */
    sustainableRate?: number;
    /** The floor at the same rate, measured right after. */
    floorAtMax?: PhaseResult;
  };
}

export function sustainable(p: PhaseResult): boolean {
  return (
    p.errorCount === 0 &&
    p.achievedRate >= SUSTAINABLE.minAchievedShare * p.rate &&
    p.latency.all.p99 <= SUSTAINABLE.maxP99Ms
  );
}

export async function runIngest(ctx: ScenarioContext): Promise<IngestResult> {
  const s = ctx.settings.ingest;
  const phases: PhaseResult[] = [];
  const rows: IngestRow[] = [];
  for (const rate of s.rates) {
    const pairs: { floor: PhaseResult; ours: PhaseResult }[] = [];
    for (let repeat = 1; repeat <= s.repeats; repeat++) {
      const order = repeat % 2 === 1 ? (['floor', 'ours'] as const) : (['ours', 'floor'] as const);
      const pair: Partial<Record<'floor' | 'ours', PhaseResult>> = {};
      for (const target of order) {
        const phase = await runIngestPhase(ctx, {
          target,
          rate,
          repeat,
          endToEnd: target === 'ours',
        });
        ctx.log(describe(phase));
        phases.push(phase);
        pair[target] = phase;
      }
      if (pair.floor && pair.ours) pairs.push({ floor: pair.floor, ours: pair.ours });
    }
    rows.push(toRow(rate, pairs));
  }

  const { ladder, sustainableRate } = await findMaxRate(ctx, phases);
  let floorAtMax: PhaseResult | undefined;
  if (sustainableRate !== undefined && !s.rates.includes(sustainableRate)) {
    floorAtMax = await runIngestPhase(ctx, {
      target: 'floor',
      rate: sustainableRate,
      repeat: 1,
      endToEnd: false,
    });
    ctx.log(`floor at max ${describe(floorAtMax)}`);
  }
  return {
    phases,
    rows,
    max: {
      criterion: SUSTAINABLE.description,
      ladder,
      ...(sustainableRate === undefined ? {} : { sustainableRate }),
      ...(floorAtMax ? { floorAtMax } : {}),
    },
  };
}

/**
 * The highest sustainable rate: from the rates measured above, up the ladder until a rate
 * fails, then a few bisection steps between the last pass and the first failure.
 */
async function findMaxRate(
  ctx: ScenarioContext,
  measured: readonly PhaseResult[],
): Promise<{ ladder: PhaseResult[]; sustainableRate?: number }> {
  const s = ctx.settings.ingest;
  const ours = (rate: number) => measured.filter((p) => p.target === 'ours' && p.rate === rate);
  let lo = [...s.rates].reverse().find((rate) => ours(rate).every(sustainable));
  let hi = s.rates.find((rate) => !ours(rate).every(sustainable));
  const ladder: PhaseResult[] = [];
  const attempt = async (rate: number) => {
    const phase = await runIngestPhase(ctx, { target: 'ours', rate, repeat: 1, endToEnd: false });
    ctx.log(`max-rate search: ${describe(phase)}`);
    ladder.push(phase);
    return sustainable(phase);
  };
  if (hi === undefined) {
    for (const rate of s.ladder.filter((r) => r > (lo ?? 0))) {
      if (await attempt(rate)) lo = rate;
      else {
        hi = rate;
        break;
      }
    }
  }
  for (let step = 0; step < s.bisectSteps && hi !== undefined; step++) {
    const mid = Math.round(((lo ?? 0) + hi) / 2 / 10) * 10;
    if (mid <= (lo ?? 0) || mid >= hi) break;
    if (await attempt(mid)) lo = mid;
    else hi = mid;
  }
  return { ladder, ...(lo === undefined ? {} : { sustainableRate: lo }) };
}

function toRow(rate: number, pairs: { floor: PhaseResult; ours: PhaseResult }[]): IngestRow {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    rate,
    floor: medianSummary(pairs.map((p) => p.floor.latency.all)),
    ours: medianSummary(pairs.map((p) => p.ours.latency.all)),
    oursSlack: medianSummary(pairs.map((p) => p.ours.latency.slack)),
    oursGithub: medianSummary(pairs.map((p) => p.ours.latency.github)),
    p99Ratio: median(pairs.map((p) => p.ours.latency.all.p99 / p.floor.latency.all.p99)),
    floorErrors: sum(pairs.map((p) => p.floor.errorCount)),
    oursErrors: sum(pairs.map((p) => p.ours.errorCount)),
    floorAchieved: median(pairs.map((p) => p.floor.achievedRate)),
    oursAchieved: median(pairs.map((p) => p.ours.achievedRate)),
  };
}

export function describe(p: PhaseResult): string {
  const l = p.latency.all;
  const lag = p.service?.nodejs_eventloop_lag_p99_seconds;
  const queues = p.service
    ? `; event-loop delay p99 ${((lag ?? NaN) * 1000).toFixed(0)} ms, inbox ` +
      `${p.service.agent_relay_inbox_depth} and outbox ${p.service.agent_relay_outbox_depth} queued`
    : '';
  return (
    `ingest ${p.target} ${p.rate}/s #${p.repeat}: ok ${p.ok}/${p.sent}, errors ${p.errorCount}, ` +
    `${p.achievedRate.toFixed(0)}/s, p50 ${l.p50.toFixed(1)} p95 ${l.p95.toFixed(1)} p99 ${l.p99.toFixed(1)} ms` +
    queues
  );
}
