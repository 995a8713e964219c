/**
 * Scale-out as an operator runs it: three replica processes of the service on one real
 * PostgreSQL, the emulator as the Agent Run Service (short timings), the fake Slack and
 * GitHub APIs. 120 Slack and GitHub triggers spread over the replicas, every fourth delivered
 * to two replicas at once; the replica holding the tracking lease is killed with SIGKILL
 * mid-flight and started again; one replica's clock runs two minutes ahead of the others';
 * runs end SUCCEEDED, FAILED or BLOCKED. Then: exactly one run
 * per trigger, one status message per run showing its final state, one final notice per run
 * (and one queued), and the tracker's service requests with three replicas within 1.1x of
 * one replica's, per tracker cycle. The replicas reach PostgreSQL through a real PgBouncer in
 * transaction mode (Debian's package; `.ci/run` installs it), as in production behind one:
 * leases, claims and the tracker must not rely on a session. Without pgbouncer (or with
 * TEST_PGBOUNCER=0) it runs against PostgreSQL directly, with a warning. Skipped, with a
 * warning, only where PostgreSQL cannot be started.
 */
import { afterAll, expect, it } from 'vitest';
import { isEndedState } from '../../src/agent/schemas.js';
import { startPgBouncer } from '../store/pgbouncer.js';
import { createDatabase, startPostgres, type PostgresServer } from '../store/postgres-server.js';
import { waitUntil } from '../helpers/wait-until.js';
import { githubTrigger, slackTrigger, type CrashTrigger } from './crash-triggers.js';
import { POLL_INTERVAL_MS, startReplicaWorld, type ReplicaWorld } from './replica-world.js';

const server: PostgresServer | undefined = await startPostgres().catch((err: unknown) => {
  console.warn('scale-out test skipped: starting PostgreSQL failed', err);
  return undefined;
});
if (!server) console.warn('scale-out test skipped: no TEST_POSTGRES_URL and no initdb on PATH');
// Through PgBouncer wherever it is installed; TEST_PGBOUNCER=0 runs straight to PostgreSQL.
const throughBouncer = server !== undefined && process.env.TEST_PGBOUNCER !== '0';
const bouncer = throughBouncer ? await startPgBouncer(server.url) : undefined;
if (throughBouncer && !bouncer)
  console.warn(
    'scale-out test runs straight to PostgreSQL, not through PgBouncer: pgbouncer is not ' +
      'installed (apt-get install pgbouncer)',
  );

let world: ReplicaWorld | undefined;
afterAll(async () => {
  await world?.close();
  await bouncer?.stop();
  await server?.stop();
});

/** What the emulator is scripted to end each run in, by its marker. */
const MARKERS = ['', '[fail]', '', '[block]', ''] as const;
const LABEL: Record<(typeof MARKERS)[number], RegExp> = {
  '': /Succeeded/,
  '[fail]': /Failed/,
  '[block]': /Waiting for input/,
};

interface Planned {
  trigger: CrashTrigger;
  label: RegExp;
  /** Delivered to two replicas at once. */
  twice: boolean;
}

/** 50 Slack threads and 10 GitHub issues, two triggers each (a prompt, then `new …`). */
function workload(): Planned[][] {
  const threads: Planned[][] = [];
  let n = 0;
  const plan = (make: (marker: string) => CrashTrigger): Planned => {
    const marker = MARKERS[n % MARKERS.length]!;
    n += 1;
    return { trigger: make(marker), label: LABEL[marker], twice: n % 4 === 0 };
  };
  for (let i = 0; i < 50; i++)
    threads.push([plan((m) => slackTrigger(i, false, m)), plan((m) => slackTrigger(i, true, m))]);
  for (let j = 0; j < 10; j++)
    threads.push([plan((m) => githubTrigger(j, false, m)), plan((m) => githubTrigger(j, true, m))]);
  return threads;
}

/** Service requests the tracker makes (reads; no trigger is handled while measuring). */
function trackerRequests(w: ReplicaWorld): number {
  return Object.entries(w.emulator.requests.snapshot())
    .filter(([route]) => route.startsWith('GET '))
    .reduce((sum, [, n]) => sum + n, 0);
}

/** Tracker cycles each live replica has run holding the lease (its /metrics), by name. */
async function trackerCycles(w: ReplicaWorld): Promise<Map<string, number>> {
  const cycles = new Map<string, number>();
  for (const r of w.replicas.values()) {
    const text = await (await fetch(`${r.url}/metrics`)).text();
    const counts = [
      ...text.matchAll(/^agent_relay_tracker_cycle_seconds_count(?:\{[^}]*\})? (\d+)$/gm),
    ];
    cycles.set(
      r.name,
      counts.reduce((n, m) => n + Number(m[1]), 0),
    );
  }
  return cycles;
}

/** Service requests in a window, and each replica's tracker cycles in it. */
async function measure(
  w: ReplicaWorld,
  ms: number,
): Promise<{ requests: number; cycles: Map<string, number> }> {
  const [requests, cycles] = [trackerRequests(w), await trackerCycles(w)];
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = await trackerCycles(w);
  return {
    requests: trackerRequests(w) - requests,
    cycles: new Map([...after].map(([name, n]) => [name, n - (cycles.get(name) ?? 0)])),
  };
}

/**
 * At least once, as the platforms deliver: to the replica `index` picks (and, when `twice`,
 * to the next one at the same moment), again to another live replica until one acknowledges.
 */
async function deliver(w: ReplicaWorld, p: Planned, index: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (let attempt = 0; ; attempt++) {
    const live = [...w.replicas.values()];
    const first = live[(index + attempt) % live.length]!;
    const targets = p.twice ? [first, live[(index + attempt + 1) % live.length]!] : [first];
    const statuses = await Promise.all(targets.map((r) => p.trigger.send(r.url).catch(() => 0)));
    if (statuses.some((s) => s >= 200 && s < 300)) return;
    if (Date.now() > deadline) throw new Error(`${p.trigger.token} never acknowledged`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it.skipIf(!server)(
  'three replicas on one PostgreSQL: one run per trigger, one status message and one notice per run, tracking cost of one',
  async () => {
    const direct = await createDatabase(server!.url, 'relay_replicas');
    const url = bouncer ? bouncer.urlFor(direct) : direct;
    const w = (world = await startReplicaWorld(url, {
      queuedMs: 50,
      pendingMs: 50,
      claimedMs: 50,
      runMs: 1_200,
      // `[pending]` probe runs stay PENDING this long, until the test holds them there.
      slowRunMs: 18_000,
    }));

    // 1. Tracking cost: one replica tracking six live runs, then three replicas.
    await w.start('r1');
    const probes = Array.from({ length: 6 }, (_, k) => ({
      trigger: slackTrigger(60 + k, false, '[pending]'),
      label: /Succeeded/,
      twice: false,
    }));
    await Promise.all(probes.map((p, k) => deliver(w, p, k)));
    await waitUntil(() => w.statusPosts().length >= 6, { timeoutMs: 10_000 });
    // Held PENDING until both windows are measured, however long the other two take to start.
    const probeRuns = w.emulator.runs.all().map((r) => r.run_id);
    expect(probeRuns).toHaveLength(6);
    for (const id of probeRuns) expect(w.emulator.setState(id, 'PENDING')?.state).toBe('PENDING');
    const window = 25 * POLL_INTERVAL_MS;
    const withOne = await measure(w, window);
    // r2's clock runs two minutes ahead: leases are decided by the database's clock, so it
    // neither steals the others' claims nor the tracking lease.
    await Promise.all([w.start('r2', { clockSkewMs: 2 * 60_000 }), w.start('r3')]);
    const withThree = await measure(w, window);
    for (const id of probeRuns) w.emulator.advance(id);
    // Counted per tracker cycle, so how much CPU the machine leaves the replicas does not
    // matter: with three, one replica tracks (the others stand by) at one replica's cost per
    // cycle. A cycle counts when it ends, after its requests: a window's edge may split one.
    const cyclesOne = withOne.cycles.get('r1') ?? 0;
    expect(withOne.requests).toBeGreaterThan(5);
    expect(cyclesOne).toBeGreaterThan(5);
    const tracking = [...withThree.cycles].filter(([, n]) => n > 0);
    expect(tracking, JSON.stringify([...withThree.cycles])).toHaveLength(1);
    const cyclesThree = tracking[0]![1];
    const perCycleOne = (withOne.requests + 1) / cyclesOne;
    expect(
      (withThree.requests - 1) / cyclesThree / perCycleOne,
      `requests / tracker cycles: 1 replica ${withOne.requests}/${cyclesOne}, ` +
        `3 replicas ${withThree.requests}/${cyclesThree}`,
    ).toBeLessThanOrEqual(1.1);

    // 2. The workload, spread over the three; the tracking replica is killed mid-flight.
    const threads = workload();
    const all = [...probes, ...threads.flat()];
    let acknowledged = 0;
    const delivering = Promise.all(
      threads.map(async (list, t) => {
        for (const [k, p] of list.entries()) {
          await deliver(w, p, t + k);
          acknowledged += 1;
        }
      }),
    );
    await waitUntil(() => acknowledged >= 50, { timeoutMs: 20_000, intervalMs: 10 });
    const holder = await w.trackingHolder();
    expect(holder).toBeDefined();
    await w.kill(holder!);
    const killedAt = Date.now();
    await delivering;
    await w.start(holder!);

    // 3. Everything settles: every run ended (or BLOCKED), every outcome told.
    const settled = () =>
      w.emulator.runs.count() === all.length &&
      w.emulator.runs.all().every((r) => isEndedState(r.state) || r.state === 'BLOCKED') &&
      w.outcomes().length >= all.length;
    await waitUntil(settled, { timeoutMs: 40_000, intervalMs: 100 }).catch((err: unknown) => {
      const states: Record<string, number> = {};
      for (const r of w.emulator.runs.all()) states[r.state] = (states[r.state] ?? 0) + 1;
      throw new Error(
        `${String(err)}: ${w.emulator.runs.count()} runs ${JSON.stringify(states)}, ` +
          `${w.outcomes().length} outcomes of ${all.length}`,
      );
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a duplicate would show now

    // Another replica took the tracking over after the kill.
    const takeovers = [...w.replicas.values()].flatMap((r) =>
      r.child.lines.filter(
        (l) => l.msg === 'tracking lease taken' && Date.parse(String(l.time)) > killedAt,
      ),
    );
    expect(takeovers.length).toBeGreaterThan(0);

    // Exactly one run per trigger, by its relay_request stamp.
    const stamps = w.emulator.runs.all().map((r) => r.metadata?.relay_request ?? '');
    expect(stamps).toHaveLength(all.length);
    expect(new Set(stamps).size).toBe(all.length);
    expect(stamps.map((s) => s.replace(/^(slack|github):/, '')).sort()).toEqual(
      all.map((p) => p.trigger.deliveryId).sort(),
    );
    if (bouncer) {
      // The replicas' work went through PgBouncer, in transaction mode.
      expect(await bouncer.poolMode()).toBe('transaction');
      expect(await bouncer.transactions()).toBeGreaterThan(all.length);
    }
    const counted = await w.query<{ n: string }>('select count(*) as n from runs');
    expect(Number(counted[0]?.n)).toBe(all.length);

    // One final notice per run delivered, and one queued; one status message per run.
    const once = Object.fromEntries(all.map((p) => [p.trigger.token, 1]));
    expect(w.countPerToken(w.outcomes())).toEqual(once);
    expect(w.countPerToken(w.statusPosts())).toEqual(once);
    const queued = await w.query<{ payload: string }>('select payload from outbox');
    const outcomeRows = new Map<string, number>();
    for (const { payload } of queued) {
      const parsed = JSON.parse(payload) as { runId?: string; message?: { type?: string } };
      if (parsed.message?.type === 'run_outcome' && parsed.runId)
        outcomeRows.set(parsed.runId, (outcomeRows.get(parsed.runId) ?? 0) + 1);
    }
    expect(outcomeRows.size).toBe(all.length);
    expect([...outcomeRows.values()].every((n) => n === 1)).toBe(true);

    // Each status message ends showing its run's final state.
    const finals = w.finalStatuses();
    for (const p of all) {
      const text = finals.find((f) => f.includes(`task ${p.trigger.token} `));
      expect(text, p.trigger.token).toMatch(p.label);
    }
  },
  120_000,
);
