import { beforeEach, describe, expect, it } from 'vitest';
import {
  createTracker,
  type Tracker,
  type TrackerMode,
} from '../../../src/runs/tracker/tracker.js';
import { waitUntil } from '../../helpers/wait-until.js';
import {
  createSeqRandom,
  flushOutbox,
  handle,
  slackMention,
  slackReply,
  testEnvPerTest,
  trackedRecord,
} from '../fixtures.js';

let t: number;
const clock = { now: () => t };
const env = testEnvPerTest();
beforeEach(async () => {
  t = Date.now();
});

function tracker(mode: TrackerMode, extra: { clock?: { now(): number } } = {}): Tracker {
  return createTracker({
    store: env.store,
    agent: env.agent,
    clock: extra.clock ?? { now: () => Date.now() },
    random: createSeqRandom(),
    logger: env.logger,
    metrics: env.metrics,
    options: { mode, pollIntervalMs: 50, maxCheckIntervalMs: 200, blockedCheckIntervalMs: 300 },
  });
}

async function cycleUntil(
  tr: Tracker,
  done: () => Promise<boolean>,
  timeoutMs = 4_000,
): Promise<void> {
  await waitUntil(
    async () => {
      await tr.runCycle();
      return done();
    },
    { timeoutMs, intervalMs: 30 },
  );
}

/** A mention that starts a run: its trigger, the run's id, and a tracker in `mode` for it. */
async function mentionRun(text: string, mode: TrackerMode = 'batch') {
  const trigger = slackMention({ text });
  await handle(env, trigger);
  const runId = (await env.store.threads.get(trigger.threadKey))!.currentRunId!;
  return { trigger, runId, tr: tracker(mode) };
}

/** Cycle `tr` until run `runId` is no longer tracked (it ended and its outcome was told). */
const untilUntracked = (tr: Tracker, runId: string) =>
  cycleUntil(tr, async () => (await env.store.runs.get(runId))!.tracked === false);

function outcomes(): string[] {
  return env.slack.posts.flatMap((p) =>
    p.message.type === 'run_outcome' ? [p.message.run.state.name] : [],
  );
}

describe('tracker', () => {
  it('edits the status message through the states and tells the outcome once', async () => {
    const { runId, tr } = await mentionRun('quick task');
    // What the trigger queued is delivered before the first cycle: on a slow machine the run
    // may already have moved on when that cycle looks, and its state would make QUEUED moot.
    await flushOutbox(env, 50);
    // The outbox keeps up with each cycle, so each state the card shows is delivered.
    await cycleUntil(tr, async () => {
      await flushOutbox(env, 50);
      return (await env.store.runs.get(runId))!.tracked === false;
    });
    for (let i = 0; i < 3; i += 1) await tr.runCycle();
    await flushOutbox(env, 50);

    const statusRef = (await env.store.runs.get(runId))!.statusMessage!;
    const states = env.slack
      .historyOf(statusRef)
      .map((m) => (m.type === 'run_status' ? m.run.state.name : m.type));
    expect(env.slack.posts.filter((p) => p.message.type === 'run_status')).toHaveLength(1);
    // "Starting…" and the run's first state were queued before the outbox ran, so the card was
    // posted with the run's first state ("Starting…" moot), then edited through the others.
    expect(states[0]).toBe('QUEUED');
    expect(states.at(-1)).toBe('SUCCEEDED');
    expect(new Set(states).size).toBeGreaterThanOrEqual(2);
    expect(outcomes()).toEqual(['SUCCEEDED']);
    const outcome = env.slack.posts.find((p) => p.message.type === 'run_outcome')!;
    expect(outcome.message).toMatchObject({ run: { requester: { id: 'U1' } } });
    expect(env.slack.reactions.map((r) => r.reaction)).toEqual(['seen', 'succeeded']);
    expect(await env.store.runs.get(runId)).toMatchObject({
      state: 'SUCCEEDED',
      notifiedState: 'SUCCEEDED',
      tracked: false,
    });
  });

  it.each(['batch', 'per-run'] as const)(
    'logs each state change at info with the run, its thread and the time since it started (%s)',
    async (mode) => {
      const { trigger, runId, tr } = await mentionRun('quick task', mode);
      await untilUntracked(tr, runId);
      const created = env.logger.lines.find((l) => l.msg === 'run created');
      expect(created).toMatchObject({
        level: 'info',
        obj: { runId, threadKey: trigger.threadKey },
      });
      const changes = env.logger.lines.filter((l) => l.msg === 'run state changed');
      expect(changes.at(-1)).toMatchObject({
        level: 'info',
        obj: { runId, threadKey: trigger.threadKey, state: 'SUCCEEDED' },
      });
      expect(changes.at(-1)?.obj.durationMs).toEqual(expect.any(Number));
      expect(changes.every((l) => l.obj.from !== l.obj.state)).toBe(true);
    },
  );

  it('BLOCKED: told once, kept tracked; a follow-up opens a new episode that is told again', async () => {
    const { trigger, runId, tr } = await mentionRun('needs input [block]');
    await cycleUntil(
      tr,
      async () => (await env.store.runs.get(runId))!.notifiedState === 'BLOCKED',
    );
    for (let i = 0; i < 3; i += 1) await tr.runCycle();
    expect((await env.store.runs.get(runId))!.tracked).toBe(true);

    await handle(env, slackReply(trigger.threadKey, { text: 'take approach B' }));
    await cycleUntil(
      tr,
      async () => (await env.store.runs.get(runId))!.notifiedState === 'SUCCEEDED',
    );
    await flushOutbox(env, 50);
    expect(outcomes()).toEqual(['BLOCKED', 'SUCCEEDED']);
    expect(env.slack.reactions.map((r) => r.reaction)).toEqual([
      'seen',
      'blocked',
      'accepted',
      'succeeded',
    ]);
  });

  it('a follow-up on an ended run: the new outcome is told even if no live state was seen', async () => {
    const { trigger, runId, tr } = await mentionRun('first pass');
    await untilUntracked(tr, runId);
    await handle(env, slackReply(trigger.threadKey, { text: 'now fail please [fail]' }));
    // Let the new execution finish before the tracker looks again.
    await waitUntil(() => env.emulator.runs.get(runId)!.state === 'FAILED');
    await cycleUntil(tr, async () => (await env.store.runs.get(runId))!.notifiedState === 'FAILED');
    await flushOutbox(env, 50);
    expect(outcomes()).toEqual(['SUCCEEDED', 'FAILED']);
  });

  it('429 from the service slows the whole tracker down, honouring Retry-After', async () => {
    await handle(env, slackMention({ text: 'slowly [slow]' }));
    const tr = tracker('batch', { clock });
    env.emulator.faults.failNext(1, 429, { retryAfterSeconds: 5 });
    const limited = await tr.runCycle();
    expect(limited.paused).toBe(false);
    const before = env.emulator.requests.total();
    t += 4_000;
    expect((await tr.runCycle()).paused).toBe(true);
    expect(env.emulator.requests.total()).toBe(before);
    t += 1_100;
    const resumed = await tr.runCycle();
    expect(resumed.paused).toBe(false);
    expect(resumed.listRequests).toBe(1);
  });

  it('batch mode makes far fewer requests than per-run for 50 runs', async () => {
    const ids = env.emulator.seedRuns(50, {
      state: 'INPROGRESS',
      manual: true,
      prompt: (i) => `held ${i}`,
    });
    async function track(): Promise<void> {
      for (const [i, runId] of ids.entries()) {
        const record = trackedRecord(runId, t, {
          threadKey: `slack:T1:C1:1700001000.${String(i).padStart(6, '0')}`,
          title: `held ${i}`,
          checkIntervalMs: 50,
        });
        if (await env.store.runs.get(runId)) await env.store.runs.update(runId, record);
        else await env.store.runs.insert(record);
      }
    }
    const cycles = 6;
    async function measure(mode: TrackerMode): Promise<number> {
      await track();
      env.emulator.requests.reset();
      const tr = tracker(mode, { clock });
      for (let i = 0; i < cycles; i += 1) {
        await tr.runCycle();
        t += 1_000; // every run is due again in per-run mode
      }
      return (
        env.emulator.requests.get('GET /agent/runs') +
        env.emulator.requests.get('GET /agent/runs/:id')
      );
    }
    const batch = await measure('batch');
    const perRun = await measure('per-run');
    expect(perRun).toBe(50 * cycles);
    // One listing per cycle; list items are full RunItems, so no detail is fetched at all.
    expect(batch).toBe(cycles);
    expect(batch * 25).toBeLessThan(perRun);

    // A change is still found in batch mode: the listing shows it, complete, so no detail.
    await track();
    const tr = tracker('batch', { clock });
    await tr.runCycle();
    env.emulator.setState(ids[7]!, 'SUCCEEDED');
    env.emulator.requests.reset();
    const stats = await tr.runCycle();
    expect(stats).toMatchObject({ listRequests: 1, detailRequests: 0, changed: 1 });
    expect(await env.store.runs.get(ids[7]!)).toMatchObject({ state: 'SUCCEEDED', tracked: false });
    const outcome = (await env.store.outboxQueue.list()).find(
      (i) => i.payload.runId === ids[7] && i.payload.kind === 'post',
    );
    expect(outcome?.payload.message).toMatchObject({
      type: 'run_outcome',
      run: {
        state: { name: 'SUCCEEDED' },
        links: expect.arrayContaining([expect.objectContaining({ kind: 'pull_request' })]),
      },
    });
  });

  it('a run the service no longer knows is dropped from tracking', async () => {
    await env.store.runs.insert(
      trackedRecord('run-gone', t, {
        threadKey: 'slack:T1:C1:1700002000.000100',
        title: 'gone',
        checkIntervalMs: 50,
      }),
    );
    await tracker('per-run').runCycle();
    expect((await env.store.runs.get('run-gone'))!.tracked).toBe(false);
  });
});
