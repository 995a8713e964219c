/**
 * Teams' first sign: what a person sees first in a channel thread after mentioning the bot,
 * while the Agent Run Service is slow to create runs. Mentions (each a new post, so its own
 * thread; signed by the fake Bot Connector in this process) at a steady rate against the
 * service process, with the service's create call held for each of `createLatenciesMs` by the
 * delaying proxy in front of the emulator (as in first-sign). Per latency: the time from when
 * a mention was due to when the first activity in its thread (the status card) reached the
 * fake Bot Connector.
 */
import { join } from 'node:path';
import {
  FAKE_TEAMS_APP_ID,
  FAKE_TEAMS_APP_PASSWORD,
  FAKE_TEAMS_TENANT,
  GENERAL_CHANNEL,
  TEAMS_PEOPLE,
  startFakeTeams,
  type FakeTeams,
} from '../../src/fakes/teams-connector.js';
import type { ScenarioContext } from '../lib/context.js';
import { sleep } from '../lib/context.js';
import { waitFor200 } from '../lib/processes.js';
import { startServiceProcess } from '../lib/service-process.js';
import { summarize } from '../lib/stats.js';
import type { Summary } from '../lib/stats.js';

export interface TeamsFirstRow {
  createLatencyMs: number;
  /** Mentions sent, answered 200, and with a first activity in their thread in the wait. */
  sent: number;
  accepted: number;
  delivered: number;
  /** Due → first activity in the thread received by the fake Bot Connector (ms; never = ∞). */
  firstSign: Summary;
  /** Whether each first activity was the status card (an Adaptive Card). */
  cards: number;
  waitedMs: number;
}

export interface TeamsFirstResult {
  rate: number;
  durationMs: number;
  rows: TeamsFirstRow[];
}

interface Sent {
  thread: string;
  dueAt: number;
  status: number;
}

async function mentionAtRate(
  teams: FakeTeams,
  url: string,
  rate: number,
  durationMs: number,
): Promise<Sent[]> {
  const count = Math.max(1, Math.round((rate * durationMs) / 1000));
  const start = performance.now() + 50;
  const sends: Promise<Sent>[] = [];
  for (let i = 0; i < count; i++) {
    const dueAt = start + (i * 1000) / rate;
    const wait = dueAt - performance.now();
    if (wait > 0) await sleep(wait);
    const activity = teams.build.channelMention(TEAMS_PEOPLE.alice, `bench job ${i}`);
    sends.push(
      teams.send(url, activity).then(async (res) => {
        await res.body?.cancel();
        return {
          thread: `${GENERAL_CHANNEL};messageid=${String(activity.id)}`,
          dueAt,
          status: res.status,
        };
      }),
    );
  }
  return Promise.all(sends);
}

async function onePhase(ctx: ScenarioContext, createLatencyMs: number): Promise<TeamsFirstRow> {
  const s = ctx.settings.teamsFirst;
  const urls = await ctx.backends.rpc.call('start', {
    timings: { runMs: 60_000 },
    createLatencyMs,
  });
  const teams = await startFakeTeams();
  const name = `teams-first-${createLatencyMs}`;
  const proc = await startServiceProcess({
    backends: urls,
    workDir: ctx.workDir,
    name,
    databasePath: join(ctx.workDir, `${name}.db`),
    logLevel: ctx.logLevel,
    entry: 'bench/children/service-with-teams.ts',
    env: {
      TEAMS_APP_ID: FAKE_TEAMS_APP_ID,
      TEAMS_APP_PASSWORD: FAKE_TEAMS_APP_PASSWORD,
      TEAMS_TENANT_ID: FAKE_TEAMS_TENANT,
      TEAMS_ALLOWED_TENANTS: FAKE_TEAMS_TENANT,
      BENCH_TEAMS_URL: teams.url,
    },
  });
  try {
    await waitFor200(proc, '/readyz');
    const url = `${proc.url}/teams/messages`;
    // A few mentions first, apart from the measured ones (a cold process answers slower).
    await mentionAtRate(teams, url, s.rate, s.warmupMs);
    const sent = await mentionAtRate(teams, url, s.rate, s.durationMs);
    const started = Date.now();
    const firstOf = (thread: string) => teams.inConversation(thread)[0];
    while (sent.some((m) => firstOf(m.thread) === undefined)) {
      if (Date.now() - started > s.drainMs + createLatencyMs) break;
      await sleep(100);
    }
    const delays = sent.map((m) => {
      const first = firstOf(m.thread);
      return first ? Math.max(0, first.at - m.dueAt) : Number.POSITIVE_INFINITY;
    });
    return {
      createLatencyMs,
      sent: sent.length,
      accepted: sent.filter((m) => m.status === 200).length,
      delivered: delays.filter(Number.isFinite).length,
      firstSign: summarize(delays),
      cards: sent.filter((m) => Array.isArray(firstOf(m.thread)?.activity.attachments)).length,
      waitedMs: Date.now() - started,
    };
  } finally {
    await proc.stop();
    await teams.close();
  }
}

export async function runTeamsFirst(ctx: ScenarioContext): Promise<TeamsFirstResult> {
  const s = ctx.settings.teamsFirst;
  const rows: TeamsFirstRow[] = [];
  for (const latency of s.createLatenciesMs) {
    const row = await onePhase(ctx, latency);
    rows.push(row);
    ctx.log(
      `teams-first create ${latency} ms: first sign p50 ${row.firstSign.p50.toFixed(0)} ` +
        `p95 ${row.firstSign.p95.toFixed(0)} ms, ${row.delivered}/${row.sent} delivered`,
    );
  }
  return { rate: s.rate, durationMs: s.durationMs, rows };
}
