/**
 * The capacity ladder (floor, and scaleout on PostgreSQL): Slack mentions, each in its own
 * thread, at rising rates, each rate on fresh processes, up to the first rate whose first
 * message p95 (from when the mention was due) exceeds 1 s, then rates between the two to narrow
 * the gap; the highest rate sustained is the capacity. And the measurement of one load of
 * mentions: acknowledgement, 👀 and first message delays, the runs created, and the CPU the
 * processes under test used.
 */
import type { ScenarioContext } from './context.js';
import { sleep } from './context.js';
import { runSpreadOpenLoop } from './load-generator.js';
import type { AcceptedSend } from './load-generator.js';
import { createPayloadFactory } from './payloads.js';
import { cpuTimeMs, residentBytes } from './processes.js';
import { summarize } from './stats.js';
import type { Summary } from './stats.js';

/** The first message's p95 a rate must keep to count as sustained (ms). */
export const CAPACITY_FIRST_MESSAGE_P95_MS = 1_000;
/** The acknowledgement p99 a rate must keep: Slack retries an event unanswered for 3 s. */
const CAPACITY_ACK_P99_MS = 3_000;

/**
 * Fresh backends for a load of mentions (the `start` call's arguments): the runs stay live
 * past the measurement, so none ends (and is edited) during it; the create held
 * `createLatencyMs` by the delaying proxy.
 */
export function mentionBackends(createLatencyMs: number) {
  return { timings: { runMs: 60_000 }, createLatencyMs };
}

export interface MentionRun {
  sent: number;
  errors: number;
  /** CPU time of the processes under test per mention sent (ms), load start to drained. */
  cpuMsPerMention: number;
  /** Their highest resident memory together, sampled every 250 ms from the load's start (MB). */
  rssPeakMb: number;
  ack: Summary;
  seen: Summary;
  firstMessage: Summary;
  firstMessageDelivered: number;
  created: number;
  /**
   * Calls to Slack and to the Agent Run Service per mention sent over the same time as the CPU,
   * by kind: what the CPU per mention paid for (none in older results).
   */
  outsideCallsPerMention?: Record<string, number>;
}

/** The calls `after` counts beyond `before`, per mention sent. */
function callsPerMention(
  before: Record<string, number>,
  after: Record<string, number>,
  sent: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [kind, n] of Object.entries(after)) {
    const made = n - (before[kind] ?? 0);
    if (made > 0) out[kind] = made / Math.max(1, sent);
  }
  return out;
}

/** All calls per mention, whatever their kind. */
export function totalCalls(calls: Record<string, number> | undefined): number | undefined {
  return calls === undefined ? undefined : Object.values(calls).reduce((a, b) => a + b, 0);
}

export interface LadderRung {
  rate: number;
  /** Mentions sent, and those whose first message came within the wait (none in older results). */
  sent?: number;
  firstMessageDelivered?: number;
  firstMessageP95: number;
  seenP95: number;
  ackP99: number;
  errors: number;
  cpuMsPerMention: number;
  sustained: boolean;
}

export interface Ladder {
  rungs: LadderRung[];
  /** The highest rate sustained (0: not even the first). */
  highest: number;
}

/** From when each mention was due to when `at` saw its thread (never: Infinity). */
export function delaysFromDue(accepted: readonly AcceptedSend[], at: Map<string, number>) {
  const delays = accepted.map((a) => {
    const t = at.get(a.threadRef);
    return t === undefined ? Number.POSITIVE_INFINITY : Math.max(0, t - a.dueAt);
  });
  return { delays, summary: summarize(delays), delivered: delays.filter(Number.isFinite).length };
}

/**
 * Waits until every thread of `measured` has its first message and its run, polling the fake
 * Slack and the emulator every `pollMs`, for at most `maxMs`.
 */
export async function awaitFirstSigns(
  ctx: ScenarioContext,
  measured: ReadonlySet<string>,
  maxMs: number,
  pollMs: number,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    const signs = await ctx.backends.rpc.call('firstSigns', null);
    const posts = signs.firstPost.filter(([t]) => measured.has(t)).length;
    const created = signs.created.filter(([t]) => measured.has(t)).length;
    if (posts >= measured.size && created >= measured.size) return;
    if (Date.now() - started > maxMs) return;
    await sleep(pollMs);
  }
}

/** A rate is sustained: no errors, first message p95 ≤ 1 s, acknowledgement p99 under 3 s. */
export function sustains(run: Pick<MentionRun, 'errors' | 'firstMessage' | 'ack'>): boolean {
  return (
    run.errors === 0 &&
    run.firstMessage.p95 <= CAPACITY_FIRST_MESSAGE_P95_MS &&
    run.ack.p99 < CAPACITY_ACK_P99_MS
  );
}

/** Rates tried between the highest sustained and the first missed: each halves the gap. */
export const LADDER_REFINE_STEPS = 2;
/** A rate tried between two rungs is a multiple of this. */
export const REFINE_GRAIN = 5;

/**
 * Each rate in turn, measured by `measure`, up to the first one not sustained; then the gap
 * between the highest sustained rate and that one is halved `LADDER_REFINE_STEPS` times (a
 * rate between them, a multiple of `REFINE_GRAIN`, measured the same way), so the capacity is reported to
 * within a quarter of the ladder's step rather than a whole step. The rungs come back in
 * order of rate.
 */
export async function climbLadder(
  rates: readonly number[],
  measure: (rate: number) => Promise<MentionRun>,
  log: (rung: LadderRung) => void,
): Promise<Ladder> {
  const rungs: LadderRung[] = [];
  const tryRate = async (rate: number): Promise<LadderRung> => {
    const run = await measure(rate);
    const rung: LadderRung = {
      rate,
      sent: run.sent,
      firstMessageDelivered: run.firstMessageDelivered,
      firstMessageP95: run.firstMessage.p95,
      seenP95: run.seen.p95,
      ackP99: run.ack.p99,
      errors: run.errors,
      cpuMsPerMention: run.cpuMsPerMention,
      sustained: sustains(run),
    };
    rungs.push(rung);
    log(rung);
    return rung;
  };
  let highest = 0;
  let missed: number | undefined;
  for (const rate of rates) {
    if (!(await tryRate(rate)).sustained) {
      missed = rate;
      break;
    }
    highest = rate;
  }
  for (let step = 0; step < LADDER_REFINE_STEPS && highest > 0 && missed !== undefined; step++) {
    const between = Math.round((highest + missed) / 2 / REFINE_GRAIN) * REFINE_GRAIN;
    if (between <= highest || between >= missed) break;
    if ((await tryRate(between)).sustained) highest = between;
    else missed = between;
  }
  return { rungs: rungs.sort((a, b) => a.rate - b.rate), highest };
}

/** A rung's log line. */
export function describeRung(g: LadderRung): string {
  return (
    `${g.rate}/s: first message p95 ${g.firstMessageP95.toFixed(0)} ms, ack p99 ` +
    `${g.ackP99.toFixed(0)} ms, CPU ${g.cpuMsPerMention.toFixed(2)} ms per mention` +
    `${g.sustained ? '' : ' (not sustained)'}`
  );
}

/**
 * Slack mentions, each in its own thread, at `rate` for `durationMs`, spread evenly over
 * `urls` (after a warm-up at the same rate): waits until every mention's first message and run
 * arrived (or the floor's drain time), then the settle time for the runs' own edits. CPU and
 * memory are those of `pids` over the same time.
 */
export async function measureMentions(
  ctx: ScenarioContext,
  target: { urls: readonly string[]; pids: readonly number[]; botUserId: string; teamId: string },
  load: { rate: number; durationMs: number; createLatencyMs: number },
): Promise<MentionRun> {
  const s = ctx.settings.floor;
  const factory = createPayloadFactory({
    mix: 'slack',
    botUserId: target.botUserId,
    teamId: target.teamId,
  });
  const spread = (durationMs: number, offset: number) =>
    runSpreadOpenLoop({
      urls: target.urls,
      rate: load.rate,
      durationMs,
      makeRequest: (i) => factory(offset + i),
    });
  await spread(s.warmupMs, 500_000);
  await sleep(s.warmupMs);
  const sum = (f: (pid: number) => number) => target.pids.reduce((a, pid) => a + f(pid), 0);
  const callsBefore = await ctx.backends.rpc.call('outsideCalls', null);
  const cpuBefore = sum(cpuTimeMs);
  let rssPeak = sum(residentBytes);
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, sum(residentBytes));
  }, 250);
  const runs = await spread(load.durationMs, 0);
  const accepted = runs.flatMap((r) => r.accepted);
  const sent = runs.reduce((a, r) => a + r.sent, 0);
  const measured = new Set(accepted.map((a) => a.threadRef));
  await awaitFirstSigns(ctx, measured, s.drainMs + load.createLatencyMs, 100);
  // The run's own edit (chat.update) follows its create.
  await sleep(s.settleMs);
  const cpuAfter = sum(cpuTimeMs);
  clearInterval(sampler);
  const callsAfter = await ctx.backends.rpc.call('outsideCalls', null);
  const signs = await ctx.backends.rpc.call('firstSigns', null);
  const first = delaysFromDue(accepted, new Map(signs.firstPost));
  return {
    sent,
    errors: runs.reduce((a, r) => a + Object.values(r.errors).reduce((x, y) => x + y, 0), 0),
    cpuMsPerMention: (cpuAfter - cpuBefore) / Math.max(1, sent),
    rssPeakMb: rssPeak / 1024 / 1024,
    ack: summarize(runs.flatMap((r) => r.latency.slack)),
    seen: delaysFromDue(accepted, new Map(signs.seen)).summary,
    firstMessage: first.summary,
    firstMessageDelivered: first.delivered,
    created: signs.created.filter(([t]) => measured.has(t)).length,
    outsideCallsPerMention: callsPerMention(callsBefore, callsAfter, sent),
  };
}
