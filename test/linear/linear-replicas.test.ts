/**
 * Linear on two replicas: two relay processes (what `agent-relay start` runs) on ONE real
 * PostgreSQL database, with Linear on, pointed at the emulator and the fake Linear API. Each
 * webhook is sent to the replica the test names; either replica's outbox delivers any message.
 * A delegation whose deliveries land on both starts one run and thinks once; every activity
 * is written once; a follow-up sent to the other replica reaches the same run; a Stop ends
 * with its response, whoever delivers the run's outcome; keep-alives come once per quiet
 * period and never after the run ended. Skipped, with a warning, only where PostgreSQL cannot
 * be started.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { startFakeLinear } from '../../src/fakes/linear-graphql-api.js';
import type { FakeLinear, FakeLinearActivity } from '../../src/fakes/linear-graphql-api.js';
import type { Child } from '../helpers/child-process.js';
import { LINEAR_WEBHOOK_SECRET } from '../helpers/linear.js';
import { startRecordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { QUICK_TIMINGS, relayEnv, startRelayFakes } from '../helpers/relay.js';
import type { RelayFakes } from '../helpers/relay.js';
import { startRelayProcess } from '../helpers/relay-process.js';
import { leakedSecrets } from '../helpers/secrets.js';
import { waitUntil } from '../helpers/wait-until.js';
import { createDatabase, startPostgres, type PostgresServer } from '../store/postgres-server.js';

const server: PostgresServer | undefined = await startPostgres().catch((err: unknown) => {
  console.warn('Linear on two replicas skipped: starting PostgreSQL failed', err);
  return undefined;
});
if (!server) console.warn('Linear on two replicas skipped: no TEST_POSTGRES_URL and no initdb');

/** Short, so the test sees several quiet periods of one run; the sweep runs every second. */
const KEEP_ALIVE_MS = 1_200;
/** How long a `[slow]` run works (quietly, after its first steps). */
const SLOW_RUN_MS = 5_000;
const STILL_WORKING = 'Still working on it…';
const STARTING = 'Starting a cloud agent run…';

interface Replica {
  name: string;
  url: string;
  child: Child;
  /** What this replica asked of Linear (its own proxy in front of the fake). */
  toLinear: RecordingProxy;
}

let fakes: RelayFakes | undefined;
let linear: FakeLinear | undefined;
let pool: pg.Pool | undefined;
const replicas: Replica[] = [];

beforeAll(async () => {
  if (!server) return;
  const databaseUrl = await createDatabase(server.url, 'relay_linear_replicas');
  fakes = await startRelayFakes({ timings: { ...QUICK_TIMINGS, slowRunMs: SLOW_RUN_MS } });
  linear = await startFakeLinear();
  const env = relayEnv(
    {
      databaseUrl,
      agentApiUrl: `${fakes.emulator.url}/api/v1`,
      slackApiUrl: fakes.slack.url,
      githubApiUrl: fakes.github.url,
    },
    {
      POLL_INTERVAL_MS: '200',
      LOG_LEVEL: 'info',
      LINEAR_WEBHOOK_SECRET,
      LINEAR_ACCESS_TOKEN: linear.workspaces[0]!.token,
    },
  );
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const fakeLinear = new URL(linear.url);
  const started = await Promise.all(
    ['a', 'b'].map(async (name) => {
      const toLinear = await startRecordingProxy(fakeLinear.origin);
      const process = await startRelayProcess(
        { ...env, LINEAR_API_URL: `${toLinear.baseUrl}${fakeLinear.pathname}` },
        {
          leaseMs: 5_000,
          workerPollMs: 50,
          startTimeoutMs: 30_000,
          linearKeepAliveMs: KEEP_ALIVE_MS,
        },
      );
      return { name, toLinear, ...process };
    }),
  );
  replicas.push(...started);
}, 60_000);

afterAll(async () => {
  const logs = replicas.map((r) => r.child.stdout() + r.child.stderr()).join('\n');
  for (const r of replicas) r.child.signalGroup('SIGKILL');
  await Promise.all(replicas.map((r) => r.child.exited));
  await pool?.end();
  await Promise.all(replicas.map((r) => r.toLinear.close()));
  await linear?.close();
  await fakes?.close();
  await server?.stop();
  expect(leakedSecrets(logs)).toEqual([]);
  expect(logs).not.toContain(linear?.workspaces[0]!.token ?? 'no token');
});

/** Send the next webhooks to this replica. */
function toReplica(replica: Replica): void {
  linear!.setWebhook(`${replica.url}/linear/webhooks`, LINEAR_WEBHOOK_SECRET);
}

/**
 * The replica that tracks the runs (it holds the tracking lease, so the run's statuses and
 * outcomes are queued, and mostly delivered, there) and the other one. Webhooks sent to the
 * other one make the two replicas share the session's deliveries.
 */
async function roles(): Promise<{ tracker: Replica; other: Replica }> {
  const tracker = await waitUntil(
    async () => {
      const { rows } = await pool!.query<{ holder: string }>(
        'select holder from leases where name = $1 and lease_until > $2',
        ['tracker', Date.now()],
      );
      const holder = rows[0]?.holder;
      return replicas.find((r) =>
        r.child.lines.some((l) => l.msg === 'tracking lease taken' && l.holder === holder),
      );
    },
    { timeoutMs: 20_000, message: 'no replica holds the tracking lease' },
  );
  return { tracker, other: replicas.find((r) => r !== tracker)! };
}

const threadOf = (sessionId: string) => `linear:org-acme:team-eng:${sessionId}`;
const activities = (sessionId: string) => linear!.activitiesOf(sessionId);
const body = (a: FakeLinearActivity) => a.content.body ?? '';

async function activity(
  sessionId: string,
  accept: (a: FakeLinearActivity) => boolean,
  what: string,
): Promise<FakeLinearActivity> {
  const found = await waitUntil(() => activities(sessionId).find(accept), {
    timeoutMs: 20_000,
  }).catch(() => {
    const seen = activities(sessionId).map((a) => `${a.content.type}: ${body(a)}`);
    throw new Error(`no ${what}; saw:\n${seen.join('\n')}`);
  });
  return found;
}

/** Nothing left to do for the session: no trigger waiting or in hand, no activity unsent. */
async function settled(sessionId: string): Promise<void> {
  const key = threadOf(sessionId);
  await waitUntil(
    async () => {
      const { rows } = await pool!.query<{ n: string }>(
        `select (select count(*) from inbox where thread_key = $1 and status in ('pending', 'processing'))
              + (select count(*) from outbox where thread_key = $1 and status = 'pending') as n`,
        [key],
      );
      return Number(rows[0]!.n) === 0;
    },
    { timeoutMs: 20_000, message: `work left for ${key}` },
  );
}

/** The emulator's runs of a session (the thread is stamped on each run). */
const runsOf = (emulator: Emulator, sessionId: string) =>
  emulator.runs.all().filter((r) => r.metadata?.relay_thread === threadOf(sessionId));

/** Every activity that is not ephemeral progress or a keep-alive, written twice or more. */
function writtenTwice(sessionId: string): string[] {
  const seen = new Map<string, number>();
  for (const a of activities(sessionId)) {
    if (a.ephemeral || body(a) === STILL_WORKING) continue;
    const key = JSON.stringify(a.content);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([k]) => k);
}

describe.skipIf(!server)('Linear on two replicas sharing PostgreSQL', () => {
  it('a delegation delivered to both replicas, and redelivered, runs once and writes each activity once', async () => {
    const { emulator } = fakes!;
    const { tracker, other } = await roles();
    toReplica(other);
    const { session, sent } = await linear!.openSession({ title: 'Fix the flaky login test' });
    expect(sent.status).toBe(200);
    // Linear redelivers (the same Linear-Delivery) to the other replica, then to the first.
    toReplica(tracker);
    const again = await linear!.send(sent.body, {}, { deliveryId: sent.deliveryId });
    toReplica(other);
    const thrice = await linear!.send(sent.body, {}, { deliveryId: sent.deliveryId });
    expect([again.status, thrice.status]).toEqual([200, 200]);

    const done = await activity(session.id, (a) => a.content.type === 'response', 'final response');
    await settled(session.id);
    expect(done.content.body).toContain('Done: **');
    expect(done.content.body).toMatch(/\[Session\]\(http:\/\/127\.0\.0\.1:\d+\/sessions\//);
    expect(done.content.body).toMatch(/\[PR: [^\]]+\]\(https?:\/\/[^)]+\/pull\/\d+\)/);
    expect(runsOf(emulator, session.id)).toHaveLength(1);
    expect(activities(session.id).filter((a) => body(a) === STARTING)).toHaveLength(1);
    expect(activities(session.id)[0]!.content).toEqual({ type: 'thought', body: STARTING });
    expect(writtenTwice(session.id)).toEqual([]);
    expect(activities(session.id).at(-1)!.id).toBe(done.id);
    // The link set once or twice is the same one link; the issue moved to its first started
    // state and no further.
    expect(linear!.sessions.get(session.id)!.externalUrls).toEqual([
      { label: 'Cloud agent session', url: expect.stringMatching(/\/sessions\//) },
    ]);
    expect(linear!.issues.get(session.issueId)!.stateId).toBe('eng-progress');
    const moves = linear!.issueUpdates.filter((u) => u.issueId === session.issueId);
    expect(moves.length).toBeGreaterThan(0);
    expect(moves.every((u) => u.stateId === 'eng-progress')).toBe(true);
  });

  it('a reply sent to the other replica follows up on the same run', async () => {
    const { emulator } = fakes!;
    const { tracker, other } = await roles();
    toReplica(tracker);
    const { session } = await linear!.openSession({ title: 'Pick the schema [block]' });
    await activity(session.id, (a) => a.content.type === 'elicitation', 'question');
    toReplica(other);
    const reply = await linear!.prompt(session.id, 'The second one');
    expect(reply.status).toBe(200);
    const done = await activity(
      session.id,
      (a) => a.content.type === 'response' && body(a).startsWith('Done'),
      'final response',
    );
    await settled(session.id);
    const runs = runsOf(emulator, session.id);
    expect(runs).toHaveLength(1);
    expect(emulator.followups.filter((f) => f.runId === runs[0]!.run_id)).toHaveLength(1);
    expect(activities(session.id).filter((a) => body(a) === STARTING)).toHaveLength(1);
    expect(writtenTwice(session.id)).toEqual([]);
    expect(activities(session.id).at(-1)!.id).toBe(done.id);
  });

  it('a Stop sent to one replica ends with its response, whichever delivers the run’s outcome', async () => {
    const { tracker, other } = await roles();
    toReplica(tracker);
    const { session } = await linear!.openSession({ title: 'Long job [slow]' });
    await activity(session.id, (a) => body(a) === 'Running…', 'a working run');
    toReplica(other);
    const stop = await linear!.prompt(session.id, '', { signal: 'stop' });
    expect(stop.status).toBe(200);
    const stopped = await activity(
      session.id,
      (a) => a.content.type === 'response' && body(a).includes('stopped the agent'),
      'the stop’s response',
    );
    // The relay has seen the run wait (an interrupted turn is BLOCKED) and has nothing left.
    await waitUntil(
      async () => {
        const { rows } = await pool!.query<{ notified_state: string | null }>(
          'select notified_state from runs where thread_key = $1',
          [threadOf(session.id)],
        );
        return rows[0]?.notified_state === 'BLOCKED';
      },
      { timeoutMs: 20_000, message: 'the run’s BLOCKED outcome was not handled' },
    );
    await settled(session.id);
    const after = activities(session.id).slice(
      activities(session.id).findIndex((a) => a.id === stopped.id) + 1,
    );
    expect(after.filter((a) => !a.ephemeral)).toEqual([]);
    expect(activities(session.id).map((a) => a.content.type)).not.toContain('elicitation');
    expect(writtenTwice(session.id)).toEqual([]);
  });

  it('keeps a quiet run alive once per quiet period, and not after it ended', async () => {
    toReplica((await roles()).other);
    const { session } = await linear!.openSession({ title: 'Slow and quiet [slow]' });
    const done = await activity(session.id, (a) => a.content.type === 'response', 'final response');
    await settled(session.id);
    const all = activities(session.id);
    const keepAlives = all.filter((a) => body(a) === STILL_WORKING);
    // The run works for seconds, mostly in silence: quiet periods came and were bridged.
    expect(keepAlives.length).toBeGreaterThan(0);
    // One keep-alive per quiet period, whichever replica wrote it: the same keep-alive from
    // both replicas would come milliseconds apart, a quiet period apart are two.
    const gaps = keepAlives.map((k, i) => k.at - (i === 0 ? all[0]! : keepAlives[i - 1]!).at);
    for (const gap of gaps) expect(gap).toBeGreaterThan(KEEP_ALIVE_MS / 2);
    // After the run ended, both replicas sweep a few times (every second) and write nothing.
    const endedAt = performance.now();
    await waitUntil(() => performance.now() - endedAt > 2 * KEEP_ALIVE_MS + 1_500, {
      timeoutMs: 10_000,
    });
    expect(activities(session.id).at(-1)!.id).toBe(done.id);
  });

  it('had both replicas write activities (so the cases above crossed replicas)', () => {
    const written = replicas.map(
      (r) =>
        r.toLinear.exchanges.filter((e) => /agentActivityCreate/i.test(JSON.stringify(e.body)))
          .length,
    );
    expect(written.every((n) => n > 0)).toBe(true);
  });
});
