/**
 * Linear's first activity: Linear marks an agent unresponsive when nothing comes within 10 s
 * of a session opening. Agent sessions opened (signed `created` webhooks from the fake Linear
 * API, in this process) at a steady rate against the service process, with the service's
 * create call held for each of `createLatenciesMs` by the delaying proxy in front of the
 * emulator (as in first-sign). Per latency: the time from when a webhook was due to when the
 * session's first activity (the "Starting…" thought) reached the fake Linear API.
 */
import { join } from 'node:path';
import { startFakeLinear } from '../../src/fakes/linear-graphql-api.js';
import type { FakeLinear } from '../../src/fakes/linear-graphql-api.js';
import type { ScenarioContext } from '../lib/context.js';
import { sleep } from '../lib/context.js';
import { waitFor200 } from '../lib/processes.js';
import { startServiceProcess } from '../lib/service-process.js';
import { summarize } from '../lib/stats.js';
import type { Summary } from '../lib/stats.js';

/** A dummy signing secret, for the bench's own fake and service only. */
const WEBHOOK_SECRET = 'bench-linear-webhook-secret-dummy';

export interface LinearFirstRow {
  createLatencyMs: number;
  /** Sessions opened (webhooks sent), answered 200, and with a first activity in the wait. */
  sent: number;
  accepted: number;
  delivered: number;
  /** Due → first activity received by the fake Linear API (ms; never = ∞). */
  firstActivity: Summary;
  /** Of those, how many came after Linear's 10 s. */
  over10s: number;
  /** The first activity's kinds seen (all "thought" when the relay is right). */
  firstKinds: string[];
  waitedMs: number;
}

export interface LinearFirstResult {
  rate: number;
  durationMs: number;
  rows: LinearFirstRow[];
}

interface Opened {
  sessionId: string;
  dueAt: number;
  status: number;
}

/** Open sessions at `rate` a second for `durationMs`, each at its due time (open loop). */
async function openAtRate(
  linear: FakeLinear,
  rate: number,
  durationMs: number,
  label: string,
): Promise<Opened[]> {
  const count = Math.max(1, Math.round((rate * durationMs) / 1000));
  const start = performance.now() + 50;
  const sends: Promise<Opened>[] = [];
  for (let i = 0; i < count; i++) {
    const dueAt = start + (i * 1000) / rate;
    const wait = dueAt - performance.now();
    if (wait > 0) await sleep(wait);
    sends.push(
      linear
        .openSession({ title: `${label} ${i}`, description: 'Measured by the bench.' })
        .then(({ session, sent }) => ({ sessionId: session.id, dueAt, status: sent.status })),
    );
  }
  return Promise.all(sends);
}

async function onePhase(ctx: ScenarioContext, createLatencyMs: number): Promise<LinearFirstRow> {
  const s = ctx.settings.linearFirst;
  const urls = await ctx.backends.rpc.call('start', {
    timings: { runMs: 60_000 },
    createLatencyMs,
  });
  const linear = await startFakeLinear();
  const name = `linear-first-${createLatencyMs}`;
  const proc = await startServiceProcess({
    backends: urls,
    workDir: ctx.workDir,
    name,
    databasePath: join(ctx.workDir, `${name}.db`),
    logLevel: ctx.logLevel,
    env: {
      LINEAR_WEBHOOK_SECRET: WEBHOOK_SECRET,
      LINEAR_ACCESS_TOKEN: linear.workspaces[0]!.token,
      LINEAR_API_URL: linear.url,
    },
  });
  try {
    await waitFor200(proc, '/readyz');
    linear.setWebhook(`${proc.url}/linear/webhooks`, WEBHOOK_SECRET);
    // A few sessions first, apart from the measured ones (a cold process answers slower).
    await openAtRate(linear, s.rate, s.warmupMs, 'Warm-up');
    const opened = await openAtRate(linear, s.rate, s.durationMs, 'Measured');
    const started = Date.now();
    const firstOf = (id: string) => linear.activitiesOf(id)[0];
    while (opened.some((o) => firstOf(o.sessionId) === undefined)) {
      if (Date.now() - started > s.drainMs + createLatencyMs) break;
      await sleep(100);
    }
    const delays = opened.map((o) => {
      const first = firstOf(o.sessionId);
      return first ? Math.max(0, first.at - o.dueAt) : Number.POSITIVE_INFINITY;
    });
    const kinds = opened
      .map((o) => firstOf(o.sessionId)?.content.type)
      .filter((k): k is string => k !== undefined);
    return {
      createLatencyMs,
      sent: opened.length,
      accepted: opened.filter((o) => o.status === 200).length,
      delivered: delays.filter(Number.isFinite).length,
      firstActivity: summarize(delays),
      over10s: delays.filter((d) => d > 10_000).length,
      firstKinds: [...new Set(kinds)],
      waitedMs: Date.now() - started,
    };
  } finally {
    await proc.stop();
    await linear.close();
  }
}

export async function runLinearFirst(ctx: ScenarioContext): Promise<LinearFirstResult> {
  const s = ctx.settings.linearFirst;
  const rows: LinearFirstRow[] = [];
  for (const latency of s.createLatenciesMs) {
    const row = await onePhase(ctx, latency);
    rows.push(row);
    ctx.log(
      `linear-first create ${latency} ms: first activity p50 ${row.firstActivity.p50.toFixed(0)} ` +
        `p99 ${row.firstActivity.p99.toFixed(0)} ms, ${row.delivered}/${row.sent} delivered, ` +
        `${row.over10s} over 10 s`,
    );
  }
  return { rate: s.rate, durationMs: s.durationMs, rows };
}
