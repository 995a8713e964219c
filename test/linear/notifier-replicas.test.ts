/**
 * Two replicas on one store (one SQLite file, two connections), each with its own session
 * keeper, Linear notifier and outbox worker: either may decide or deliver any keep-alive of a
 * session. The keep-alive comes from the shared records (once, by one of them, never after
 * the run's last words), and a Stop answered on one keeps the other from asking after it.
 */
import { describe, expect, it } from 'vitest';
import {
  notice,
  runOutcomeMessage,
  runStatusMessage,
} from '../../src/core/message/render-model.js';
import type { MessageModel } from '../../src/core/message/message-model.js';
import { noopMetrics, type OutboxPayload, type StoreTx } from '../../src/core/ports/index.js';
import { startLinearWithSession, starting, to, view } from './notifier-messages.js';
import { createLinearNotifier } from '../../src/linear/index.js';
import type { OpenedStore } from '../../src/store/index.js';
import { createSessionKeeper } from '../../src/runs/tracker/session-keeper.js';
import { afterStop, followRunWork, turnEnded, turnStarted } from '../../src/runs/session-work.js';
import { createOutboxWorker } from '../../src/runs/workers/outbox-worker.js';
import { captureLogs } from '../helpers/log-capture.js';
import { PLATFORM_CAPABILITIES } from '../helpers/platform-capabilities.js';
import { worldPerTest } from '../helpers/world-per-test.js';
import { createSqliteHarness, harnessPer, sampleRun } from '../store/harness.js';

const KEEP_ALIVE_MS = 20 * 60_000;
const STILL_WORKING = { type: 'thought' as const, body: 'Still working on it…' };
const RUN = 'r1';

const startLinear = worldPerTest(startLinearWithSession);
const sqlite = harnessPer(createSqliteHarness);

/**
 * Replicas A and B: each its own store connection on one database file, one clock. Run `r1`
 * is the session's current run, recorded as starting to work.
 */
async function twoReplicas() {
  const linear = await startLinear();
  let now = 1_000_000;
  const clock = { now: () => now };
  const replica = async () => {
    const store = await sqlite.open({ checkpointIntervalMs: 0 });
    const { logger } = captureLogs();
    const notifier = createLinearNotifier({
      apiUrl: linear.url,
      token: linear.workspaces[0]!.token,
      logger,
      clock,
      sessions: store.linearSessions,
    });
    const keeper = createSessionKeeper({ store, clock, log: logger, keepAliveMs: KEEP_ALIVE_MS });
    const outbox = createOutboxWorker({
      store,
      notifiers: { linear: notifier },
      clock,
      random: { id: () => 'x', float: () => 0.5 },
      logger,
      metrics: noopMetrics,
      options: { leaseMs: 30_000, pollMs: 50, maxAttempts: 3, drainMs: 1_000, retryBaseMs: 1_000 },
    });
    return { store, notifier, keeper, outbox };
  };
  const a = await replica();
  const b = await replica();
  const threadKey = to.threadKey;
  await a.store.threads.upsert({ threadKey, platform: 'linear', currentRunId: RUN }, now);
  // Recorded as a new run is (record-run.ts): the run, and its session working.
  await a.store.transaction(async (tx) => {
    const run = sampleRun({ runId: RUN, threadKey, platform: 'linear', state: 'QUEUED' });
    await tx.runs.insert(run);
    await followRunWork(
      tx,
      PLATFORM_CAPABILITIES,
      { threadKey, platform: 'linear' },
      run.state,
      now,
    );
  });
  /**
   * On `on`, the run's change to `state` committed as the runs commit it: the record, its
   * session's working state and the notifications (without the outcome a Stop's answer keeps
   * back), in one transaction.
   */
  const change = (on: { store: OpenedStore }, state: string, ...queued: MessageModel[]) =>
    on.store.transaction(async (tx) => {
      const record = (await tx.runs.get(RUN))!;
      expect(await tx.runs.compareAndUpdate(RUN, record, { state, updatedAt: now })).toBe(true);
      await followRunWork(tx, PLATFORM_CAPABILITIES, record, state, now);
      const kept = await afterStop(tx, PLATFORM_CAPABILITIES, record, queued.map(post), now);
      for (const payload of kept) await tx.outbox.enqueue(payload, now);
    });
  const post = (message: MessageModel): OutboxPayload => ({
    kind: 'post',
    destination: to,
    message,
  });
  /** Both outbox workers deliver what is due, at once, until nothing is. */
  const deliver = async () => {
    while ((await Promise.all([a.outbox.runOnce(), b.outbox.runOnce()])).some((n) => n > 0));
  };
  const sweep = (...on: { keeper: { sweep(): Promise<number> } }[]) =>
    Promise.all(on.map((r) => r.keeper.sweep()));
  const activities = () => linear.activitiesOf('s1').map((x) => x.content);
  await change(a, 'INPROGRESS', starting, runStatusMessage(view('INPROGRESS')));
  await deliver();
  return {
    linear,
    a,
    b,
    change,
    post,
    deliver,
    sweep,
    activities,
    advance: (ms: number) => (now += ms),
  };
}

describe('session keepers and Linear notifiers on two replicas sharing a store', () => {
  it('writes no keep-alive into a session whose run another replica recorded ended', async () => {
    const { a, b, change, deliver, sweep, activities, advance } = await twoReplicas();
    advance(60_000);
    await change(b, 'SUCCEEDED', runOutcomeMessage(view('SUCCEEDED')));
    advance(2 * KEEP_ALIVE_MS);
    expect(await sweep(a, b)).toEqual([0, 0]);
    await deliver();
    expect(activities().at(-1)).toMatchObject({ type: 'response' });
    expect(activities()).not.toContainEqual(STILL_WORKING);
  });

  it('counts the quiet period from the last write of either, and one of them keeps it alive', async () => {
    const { a, b, deliver, sweep, activities, advance } = await twoReplicas();
    advance(10 * 60_000);
    // B writes to the session (a progress thought of the same live run).
    const setup = { kind: 'setup' as const, events: ['environment ready'] };
    const posted = { threadKey: to.threadKey, id: 'session:s1' };
    await b.notifier.update(posted, runStatusMessage({ ...view('INPROGRESS'), progress: setup }));
    const written = activities().length;
    advance(11 * 60_000);
    // Quiet for 11 minutes only, though the run started working 21 minutes ago.
    expect(await sweep(a, b)).toEqual([0, 0]);
    advance(10 * 60_000);
    // Both sweep at once: exactly one keep-alive is queued, and both outboxes deliver it once.
    const queued = await sweep(a, b);
    expect(queued[0]! + queued[1]!).toBe(1);
    await deliver();
    expect(activities().slice(written)).toEqual([STILL_WORKING]);
    // The keep-alive was a write too: the next quiet period starts from it.
    advance(KEEP_ALIVE_MS - 60_000);
    expect(await sweep(a, b)).toEqual([0, 0]);
    advance(60_000);
    expect((await sweep(b, a)).reduce((x, y) => x + y)).toBe(1);
    await deliver();
    expect(activities().slice(written)).toEqual([STILL_WORKING, STILL_WORKING]);
  });

  it('keeps alive a quiet run whose work only the other replica recorded, on its own outbox', async () => {
    const { a, b, sweep, activities, advance } = await twoReplicas();
    advance(KEEP_ALIVE_MS);
    expect(await sweep(b)).toEqual([1]);
    expect(await sweep(a)).toEqual([0]);
    await a.outbox.runOnce();
    expect(activities().at(-1)).toEqual(STILL_WORKING);
  });

  it('writes no keep-alive nor question after a Stop whose answer the other replica queued', async () => {
    const { a, b, change, post, deliver, sweep, activities, advance } = await twoReplicas();
    const answer = 'stopped the agent: it was interrupted. Reply in this thread to continue.';
    // The Stop's transaction: the run's row, the turn's end, the answer.
    await a.store.transaction(async (tx: StoreTx) => {
      const record = (await tx.runs.get(RUN))!;
      await tx.runs.update(RUN, { tracked: true });
      await turnEnded(tx, PLATFORM_CAPABILITIES, record, 1);
      await tx.outbox.enqueue(post({ ...notice('info', answer), closing: true }), 1);
    });
    advance(2 * KEEP_ALIVE_MS);
    expect(await sweep(a, b)).toEqual([0, 0]);
    // The run is seen waiting (an interrupted turn is BLOCKED), on the other replica.
    await change(
      b,
      'BLOCKED',
      runOutcomeMessage(view('BLOCKED', { status_message: { message: 'Interrupted by user' } })),
    );
    await deliver();
    expect(activities().at(-1)).toEqual({ type: 'response', body: answer });
    expect(activities().map((c) => c.type)).not.toContain('elicitation');
    expect(activities()).not.toContainEqual(STILL_WORKING);
    // The mark was taken: the run's next question (after a reply) is asked, on either replica.
    await change(a, 'INPROGRESS');
    await change(
      b,
      'BLOCKED',
      runOutcomeMessage(view('BLOCKED', { status_message: { message: 'Which database?' } })),
    );
    await deliver();
    expect(activities().at(-1)).toMatchObject({ type: 'elicitation' });
  });

  it('asks the question after a Stop when a follow-up came before the run was seen waiting', async () => {
    const { a, b, change, post, deliver, activities } = await twoReplicas();
    const answer = 'stopped the agent. Reply in this thread to continue.';
    await a.store.transaction(async (tx: StoreTx) => {
      const record = (await tx.runs.get(RUN))!;
      await turnEnded(tx, PLATFORM_CAPABILITIES, record, 1);
      await tx.outbox.enqueue(post({ ...notice('info', answer), closing: true }), 1);
    });
    // The reply's transaction (follow-up.ts) starts a new turn: the Stop's mark goes.
    await b.store.transaction(async (tx: StoreTx) => {
      await turnStarted(tx, PLATFORM_CAPABILITIES, (await tx.runs.get(RUN))!, 2);
    });
    await change(
      a,
      'BLOCKED',
      runOutcomeMessage(view('BLOCKED', { status_message: { message: 'Which database?' } })),
    );
    await deliver();
    expect(
      activities()
        .slice(-2)
        .map((c) => c.type),
    ).toEqual(['response', 'elicitation']);
  });

  it('never lets a keep-alive follow the run’s last words, when one replica sweeps as the other records the end', async () => {
    const { a, b, change, deliver, sweep, activities, advance } = await twoReplicas();
    advance(KEEP_ALIVE_MS);
    // A's keeper and B's tracker commit at once: whichever comes first, the response is last.
    const [[queued]] = await Promise.all([
      sweep(a),
      change(b, 'SUCCEEDED', runOutcomeMessage(view('SUCCEEDED'))),
    ]);
    await deliver();
    const keepAlives = activities().filter((c) => c.body === STILL_WORKING.body);
    expect(keepAlives).toHaveLength(queued!);
    expect(activities().at(-1)).toMatchObject({ type: 'response' });
    // A keep-alive queued before the end lands before it, though delivered after a wait.
    advance(KEEP_ALIVE_MS);
    await change(a, 'INPROGRESS');
    advance(KEEP_ALIVE_MS);
    expect(await sweep(b)).toEqual([1]);
    await change(a, 'SUCCEEDED', runOutcomeMessage(view('SUCCEEDED')));
    await deliver();
    expect(activities().slice(-2)).toEqual([
      STILL_WORKING,
      expect.objectContaining({ type: 'response' }),
    ]);
    // And no replica keeps the ended session alive.
    advance(2 * KEEP_ALIVE_MS);
    expect(await sweep(a, b)).toEqual([0, 0]);
  });

  it('delivers a failed keep-alive again, and asks no more after one Linear refused for good', async () => {
    const { a, b, linear, deliver, sweep, activities, advance } = await twoReplicas();
    advance(KEEP_ALIVE_MS);
    expect(await sweep(a)).toEqual([1]);
    linear.failNext(503);
    await deliver();
    expect(activities()).not.toContainEqual(STILL_WORKING);
    // Held back while it waits to be tried again: no second keep-alive meanwhile.
    advance(KEEP_ALIVE_MS);
    expect(await sweep(a, b)).toEqual([0, 0]);
    await deliver();
    expect(activities().filter((c) => c.body === STILL_WORKING.body)).toHaveLength(1);
    // The session is gone from Linear: one refusal (parked), then no more keep-alives.
    advance(KEEP_ALIVE_MS);
    linear.sessions.delete('s1');
    expect(await sweep(b)).toEqual([1]);
    await deliver();
    const asked = linear.requests.length;
    advance(KEEP_ALIVE_MS);
    expect(await sweep(a, b)).toEqual([0, 0]);
    await deliver();
    expect(linear.requests.length).toBe(asked);
  });

  it('writes no keep-alive while the store says the run ended, though Linear was never told', async () => {
    const { a, b, change, deliver, sweep, activities, advance } = await twoReplicas();
    advance(KEEP_ALIVE_MS + 60_000);
    expect(await sweep(b)).toEqual([1]);
    await deliver();
    // The run's record says it ended, and the session's memory does not know (a record written
    // before keep-alives were decided from it, say); nothing tells Linear either.
    await a.store.runs.update(RUN, { state: 'SUCCEEDED' });
    const before = activities().length;
    advance(KEEP_ALIVE_MS + 60_000);
    expect(await sweep(a, b)).toEqual([0, 0]);
    // A follow-up brings the run back to work: keep-alives again when it goes quiet.
    await change(b, 'INPROGRESS');
    advance(KEEP_ALIVE_MS + 60_000);
    expect(await sweep(a)).toEqual([1]);
    await deliver();
    expect(activities()).toHaveLength(before + 1);
    expect(activities().at(-1)).toEqual(STILL_WORKING);
  });
});
