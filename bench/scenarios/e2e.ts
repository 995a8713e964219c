/**
 * Scenario 4, end to end: trigger -> first status message, under the ingest load. The mixed
 * rows come from the ingest scenario's agent-relay phases when it ran (otherwise those phases
 * run here); the Slack-only rows run the same load with Slack events only, once per rate, to
 * show what the GitHub half does to Slack. Messages that never came count as later than the
 * wait.
 */
import type { ScenarioContext } from '../lib/context.js';
import { median, medianSummary } from '../lib/stats.js';
import type { Summary } from '../lib/stats.js';
import type { IngestResult } from './ingest.js';
import { describe } from './ingest.js';
import { runIngestPhase } from './ingest-phase.js';
import type { PhaseResult } from './ingest-phase.js';

export interface EndToEndRow {
  rate: number;
  mix: 'both' | 'slack';
  repeats: number;
  slack: Summary;
  github: Summary;
  /** Medians over repeats of delivered / accepted triggers. */
  slackDelivered: number;
  slackAccepted: number;
  githubDelivered: number;
  githubAccepted: number;
  waitedMs: number;
}

export interface EndToEndResult {
  source: 'ingest' | 'own-phases';
  rows: EndToEndRow[];
}

export async function runEndToEnd(
  ctx: ScenarioContext,
  ingest: IngestResult | undefined,
): Promise<EndToEndResult> {
  const s = ctx.settings.ingest;
  let phases = ingest?.phases.filter((p) => p.e2e !== undefined) ?? [];
  const source = phases.length > 0 ? 'ingest' : 'own-phases';
  if (phases.length === 0) {
    for (const rate of s.rates) {
      for (let repeat = 1; repeat <= s.repeats; repeat++) {
        const phase = await runIngestPhase(ctx, { target: 'ours', rate, repeat, endToEnd: true });
        ctx.log(describe(phase));
        phases = [...phases, phase];
      }
    }
  }
  for (const rate of s.rates) {
    const phase = await runIngestPhase(ctx, {
      target: 'ours',
      rate,
      repeat: 1,
      endToEnd: true,
      mix: 'slack',
    });
    ctx.log(`Slack only: ${describe(phase)}`);
    phases = [...phases, phase];
  }
  const rows = (['both', 'slack'] as const).flatMap((mix) =>
    s.rates.map((rate) =>
      toRow(
        rate,
        mix,
        phases.filter((p) => p.rate === rate && p.mix === mix),
      ),
    ),
  );
  for (const r of rows) {
    ctx.log(
      `e2e ${r.rate}/s ${r.mix}: Slack p50 ${r.slack.p50.toFixed(0)} p95 ${r.slack.p95.toFixed(0)} ms ` +
        `(${r.slackDelivered}/${r.slackAccepted}), GitHub p50 ${r.github.p50.toFixed(0)} ms ` +
        `(${r.githubDelivered}/${r.githubAccepted})`,
    );
  }
  return { source, rows };
}

function toRow(rate: number, mix: 'both' | 'slack', phases: PhaseResult[]): EndToEndRow {
  const e = phases.flatMap((p) => (p.e2e ? [p.e2e] : []));
  return {
    rate,
    mix,
    repeats: e.length,
    slack: medianSummary(e.map((x) => x.slack)),
    github: medianSummary(e.map((x) => x.github)),
    slackDelivered: median(e.map((x) => x.delivered.slack)),
    slackAccepted: median(e.map((x) => x.accepted.slack)),
    githubDelivered: median(e.map((x) => x.delivered.github)),
    githubAccepted: median(e.map((x) => x.accepted.github)),
    waitedMs: median(e.map((x) => x.waitedMs)),
  };
}
