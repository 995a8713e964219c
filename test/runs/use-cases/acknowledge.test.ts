/**
 * Acknowledge at pickup: 👀 and the "Starting…" status message reach the platform before the
 * service sees the create call (the service sits behind a gate that holds the call), the same
 * message is then edited to the run, a retried attempt acknowledges nothing twice, a 429
 * or an `at_capacity` create holds back every trigger's call to the service (never a first
 * sign), and creates held by a slow service never hold back other triggers' first signs.
 */
import { describe, expect, it } from 'vitest';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import type { Trigger } from '../../../src/core/trigger.js';
import { AT_CAPACITY_PAUSE_MS } from '../../../src/runs/use-cases/start-run.js';
import { startGatedEngine } from '../gated-service.js';
import { worldPerTest } from '../../helpers/world-per-test.js';
import { waitUntil } from '../../helpers/wait-until.js';
import {
  awaitEveryRunsCard,
  createdTitles,
  flushOutbox,
  githubComment,
  handle,
  slackMention,
  startTestEnv,
  type TestEnv,
} from '../fixtures.js';
import type { RecordingNotifier } from '../recording-notifier.js';

// Registered in this order so that after each test the env closes before its gate.
const startGated = worldPerTest(startGatedEngine);
const startEnv = worldPerTest(startTestEnv);

function label(m: MessageModel | undefined): string | undefined {
  if (m?.type === 'run_status') return m.run.state.label;
  return m?.type;
}

describe('acknowledging a new run at pickup', () => {
  const cases: [string, () => Trigger, (e: TestEnv) => RecordingNotifier][] = [
    [
      'a Slack mention',
      () => slackMention({ text: 'model=m-fast fix the login page' }),
      (e) => e.slack,
    ],
    ['a GitHub comment', () => githubComment(), (e) => e.github],
  ];
  for (const [name, makeTrigger, platformOf] of cases) {
    it(`${name}: 👀 and "Starting…" (naming the settings) before the service sees the create`, async () => {
      const env = await startEnv();
      const { gate, engine } = await startGated(env);
      const platform = platformOf(env);
      engine.start();
      const trigger = makeTrigger();
      await engine.sink.accept(trigger);

      await waitUntil(() => platform.posts.length === 1 && platform.reactions.length === 1, {
        message: '👀 and "Starting…" delivered',
      });
      // The create call is held at the gate: the service has not seen it yet.
      await waitUntil(() => gate.held() === 1, { message: 'the create call waits at the gate' });
      expect(env.emulator.requests.get('POST /agent/runs') ?? 0).toBe(0);
      expect(env.emulator.runs.count()).toBe(0);
      expect(platform.reactions[0]).toEqual({ target: trigger.triggerMessage, reaction: 'seen' });
      const starting = platform.posts[0]!.message;
      expect(starting).toMatchObject({
        type: 'run_status',
        run: { runId: '', state: { label: 'Starting…' }, actions: [] },
      });
      if (trigger.platform === 'slack') {
        expect(starting.type === 'run_status' && starting.run.applied).toContainEqual({
          key: 'model',
          value: 'm-fast',
          source: 'inline',
        });
      }

      gate.thaw();
      await waitUntil(() => env.emulator.runs.count() === 1, { message: 'run created' });
      const runId = env.emulator.runs.all()[0]!.run_id;
      const ref = platform.posts[0]!.ref;
      await waitUntil(async () => (await env.store.runs.get(runId))?.statusMessage?.id === ref.id, {
        message: 'status message adopted by the run',
      });
      // Still one message and one 👀: "Starting…" was edited in place to the run.
      expect(platform.posts.filter((p) => p.message.type === 'run_status')).toHaveLength(1);
      expect(platform.reactions.filter((r) => r.reaction === 'seen')).toHaveLength(1);
      const history = platform.historyOf(ref);
      expect(label(history[0])).toBe('Starting…');
      expect(history.slice(1).every((m) => m.type === 'run_status' && m.run.runId === runId)).toBe(
        true,
      );
      await engine.stop();
    });
  }

  it('a failed create edits "Starting…" to the error in plain words', async () => {
    const env = await startEnv();
    const { gate, engine } = await startGated(env);
    env.emulator.faults.failNext(1, 422, { route: 'POST /agent/runs' });
    engine.start();
    await engine.sink.accept(slackMention({ text: 'this will be refused' }));
    // "Starting…" goes out while the create waits at the gate; then the service refuses it.
    await waitUntil(() => env.slack.posts.length === 1 && gate.held() === 1, {
      message: '"Starting…" delivered, the create held',
    });
    gate.thaw();
    await waitUntil(
      () => (env.slack.historyOf(env.slack.posts[0]!.ref).length === 2 ? true : undefined),
      {
        message: 'the error edited in',
      },
    );
    await engine.stop();
    expect(env.emulator.runs.count()).toBe(0);
    expect(env.slack.posts).toHaveLength(1);
    const history = env.slack.historyOf(env.slack.posts[0]!.ref);
    expect(history.map(label)).toEqual(['Starting…', 'notice']);
    const last = history[1]!;
    expect(last.type === 'notice' && last.text).toMatch(/did not accept the request/);
  });

  it('an error queued before "Starting…" went out is the first and only words of the card', async () => {
    const env = await startEnv();
    env.emulator.faults.failNext(1, 422, { route: 'POST /agent/runs' });
    await handle(env, slackMention({ text: 'this will be refused' }));
    await flushOutbox(env);
    expect(env.slack.posts).toHaveLength(1);
    const history = env.slack.historyOf(env.slack.posts[0]!.ref);
    expect(history.map(label)).toEqual(['notice']);
  });

  it('retries after an outage acknowledge once: one 👀, one message, one run', async () => {
    const env = await startEnv({ options: { inboxRetryDelaysMs: [20, 20, 20] } });
    env.emulator.faults.failNext(2, 503, { route: 'POST /agent/runs', retryAfterSeconds: 0 });
    const trigger = slackMention({ text: 'survive two failures' });
    await handle(env, trigger);
    await waitUntil(
      async () => {
        await env.engine.inbox.runOnce();
        await flushOutbox(env);
        return env.emulator.runs.count() === 1 && (await env.store.inboxQueue.depth()) === 0;
      },
      { message: 'run created after retries' },
    );
    await flushOutbox(env);
    expect(env.slack.reactions.filter((r) => r.reaction === 'seen')).toHaveLength(1);
    expect(env.slack.posts).toHaveLength(1);
    const history = env.slack.historyOf(env.slack.posts[0]!.ref);
    // The one-time "saved, will retry" (queued behind "Starting…" before either went out, so
    // "Starting…" was moot), then the run.
    expect(history.map(label)[0]).toBe('notice');
    expect(history.filter((m) => m.type === 'notice')).toHaveLength(1);
    expect(history.at(-1)).toMatchObject({
      type: 'run_status',
      run: { runId: env.emulator.runs.all()[0]!.run_id },
    });
  });

  it("a 429 from the service holds back every trigger's create for its Retry-After, not its first sign", async () => {
    // The relay's clock stands still unless moved: the pause ends exactly when it says.
    let now = Date.now();
    const env = await startEnv({
      options: { inboxRetryDelaysMs: [60_000] },
      deps: { clock: { now: () => now } },
    });
    env.emulator.faults.failNext(1, 429, { route: 'POST /agent/runs', retryAfterSeconds: 30 });
    await env.store.inbox.add(slackMention({ text: 'first, refused for now' }), now);
    expect(await env.engine.inbox.runOnce()).toBe(1);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(1);
    await flushOutbox(env);
    const shownBefore = env.slack.posts.length;

    // Another thread's trigger: 👀 and "Starting…" go out at once, and it steps back to the
    // inbox (deferred) rather than wait in hand; its create waits for the pause the service
    // asked for, not a millisecond less.
    const pausedAt = now;
    await env.store.inbox.add(slackMention({ text: 'second, its create must wait' }), now);
    expect(await env.engine.inbox.runOnce()).toBe(1);
    await flushOutbox(env);
    expect(env.slack.posts).toHaveLength(shownBefore + 1);
    expect(label(env.slack.posts.at(-1)?.message)).toBe('Starting…');
    expect(env.slack.reactions.filter((r) => r.reaction === 'seen')).toHaveLength(2);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(1);
    now = pausedAt + 30_000 - 1;
    expect(await env.engine.inbox.runOnce()).toBe(0);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(1);
    now = pausedAt + 30_000;
    expect(await env.engine.inbox.runOnce()).toBe(1);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(2);
    expect(env.emulator.runs.count()).toBe(1);
    // Its "Starting…" became the run's status: no second message, no second 👀.
    await flushOutbox(env);
    expect(env.slack.posts).toHaveLength(shownBefore + 1);
    expect(env.slack.reactions.filter((r) => r.reaction === 'seen')).toHaveLength(2);
  });

  it('deferred triggers outlive their process: the next one creates each run once, with no second first sign', async () => {
    const env = await startEnv({ options: { inboxRetryDelaysMs: [60_000] } });
    // The first create is refused for 30 s: every trigger after it steps back to the inbox.
    env.emulator.faults.failNext(1, 429, { route: 'POST /agent/runs', retryAfterSeconds: 30 });
    await env.store.inbox.add(slackMention({ text: 'refused for now' }), Date.now());
    expect(await env.engine.inbox.runOnce()).toBe(1);
    const later = Array.from({ length: 5 }, (_, i) => slackMention({ text: `later ${i}` }));
    for (const trigger of later) await env.store.inbox.add(trigger, Date.now());
    // Four in hand at a time.
    expect((await env.engine.inbox.runOnce()) + (await env.engine.inbox.runOnce())).toBe(5);
    await flushOutbox(env);
    expect(env.slack.posts).toHaveLength(6);
    expect(env.slack.reactions.filter((r) => r.reaction === 'seen')).toHaveLength(6);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(1);
    await env.engine.stop();

    // The next process knows nothing of the pause or of the line; it finds the line stored.
    const next = env.makeEngine(env.store);
    await waitUntil(
      async () => {
        await next.inbox.runOnce();
        return env.emulator.runs.count() === 5;
      },
      { message: 'five runs created by the next process' },
    );
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(6);
    // One each (four side by side, so in any order); the refused one waits for its own retry,
    // a minute on.
    expect(createdTitles(env)).toEqual(later.map((t) => t.text));
    expect(await env.store.operator.queueHealth()).toMatchObject({
      inbox: { waiting: 1, processing: 0 },
    });
    await flushOutbox(env);
    // Every "Starting…" became its run's status: nothing posted twice, no 👀 twice.
    expect(env.slack.posts).toHaveLength(6);
    expect(env.slack.reactions.filter((r) => r.reaction === 'seen')).toHaveLength(6);
    await next.stop();
  });

  it('an at_capacity create: the run is recorded and shown; the next create waits out the pause', async () => {
    // The relay's clock stands still unless moved: the pause ends exactly when it says.
    let now = Date.now();
    const clock = { now: () => now };
    const env = await startEnv({ deps: { clock } });
    env.emulator.faults.atCapacityNext(1);
    const first = slackMention({ text: 'accepted by a full service' });
    await env.store.inbox.add(first, now);
    expect(await env.engine.inbox.runOnce()).toBe(1);
    await flushOutbox(env);

    // Accepted though the service is full: recorded and shown like any new run.
    expect(env.emulator.runs.count()).toBe(1);
    const runId = env.emulator.runs.all()[0]!.run_id;
    const record = await env.store.runs.get(runId);
    expect(record).toMatchObject({ runId, state: 'QUEUED', tracked: true });
    expect(record?.statusMessage).toEqual(env.slack.posts[0]!.ref);
    expect(env.slack.historyOf(env.slack.posts[0]!.ref).at(-1)).toMatchObject({
      type: 'run_status',
      run: { runId },
    });

    // Another thread's create waits until the pause has passed, not a millisecond less; its
    // 👀 and "Starting…" do not wait (it is deferred meanwhile, out of hand).
    const pausedAt = now;
    await env.store.inbox.add(slackMention({ text: 'second, must wait' }), now);
    expect(await env.engine.inbox.runOnce()).toBe(1);
    await flushOutbox(env);
    expect(env.slack.posts).toHaveLength(2);
    now = pausedAt + AT_CAPACITY_PAUSE_MS - 1;
    expect(await env.engine.inbox.runOnce()).toBe(0);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(1);
    now = pausedAt + AT_CAPACITY_PAUSE_MS;
    expect(await env.engine.inbox.runOnce()).toBe(1);
    expect(env.emulator.runs.count()).toBe(2);
    // That create answered at_capacity: false: no new pause.
    await env.store.inbox.add(slackMention({ text: 'third, goes at once' }), now);
    expect(await env.engine.inbox.runOnce()).toBe(1);
    expect(env.emulator.runs.count()).toBe(3);
  });

  it('a hand full of triggers waiting on the service steps back: every first sign goes out, the runs come in request order', async () => {
    // Four in hand, one create at a time and one more waiting for it: twelve mentions, and the
    // create is held. Held in hand, eight of them would wait in the inbox, first sign and all.
    const env = await startEnv({ options: { inboxConcurrency: 4, serviceConcurrency: 1 } });
    const { gate, engine } = await startGated(env);
    engine.start();
    const triggers = Array.from({ length: 12 }, (_, i) =>
      slackMention({ text: `task ${String(i).padStart(2, '0')}` }),
    );
    for (const trigger of triggers) await engine.sink.accept(trigger);

    await waitUntil(() => env.slack.posts.length === 12 && env.slack.reactions.length === 12, {
      message: 'twelve first signs delivered while one create is held',
    });
    expect(gate.held()).toBe(1);
    expect(env.emulator.runs.count()).toBe(0);
    // Ten stepped back to the inbox; one create is in flight and one waits in the lane.
    expect(await env.store.operator.queueHealth()).toMatchObject({
      inbox: { waiting: 10, processing: 2 },
    });

    gate.thaw();
    await waitUntil(() => env.emulator.runs.count() === 12, { message: 'twelve runs created' });
    // First come, first served: the service saw the requests in the order people asked.
    expect(env.emulator.runs.all().map((r) => r.title)).toEqual(triggers.map((t) => t.text));
    // Each "Starting…" became its run's status: no message posted twice, no 👀 twice.
    await awaitEveryRunsCard(env, env.store, () => flushOutbox(env));
    expect(env.slack.posts).toHaveLength(12);
    expect(env.slack.reactions.filter((r) => r.reaction === 'seen')).toHaveLength(12);
    expect(await env.store.inboxQueue.depth()).toBe(0);
    await engine.stop();
  });

  it('creates held by a slow service never hold back the first signs of the triggers behind them', async () => {
    const env = await startEnv({ options: { inboxConcurrency: 16, serviceConcurrency: 2 } });
    const { gate, engine } = await startGated(env);
    engine.start();
    const triggers = Array.from({ length: 8 }, (_, i) => slackMention({ text: `task ${i}` }));
    for (const trigger of triggers) await engine.sink.accept(trigger);

    // Every trigger's 👀 and "Starting…" arrive while the service lane's two creates are held.
    await waitUntil(() => env.slack.posts.length === 8 && env.slack.reactions.length === 8, {
      message: 'eight first signs delivered while the creates are held',
    });
    await waitUntil(() => gate.held() === 2, { message: 'two creates held at the gate' });
    // The lane lets no third create through while two are in flight.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(gate.held()).toBe(2);
    expect(env.emulator.runs.count()).toBe(0);
    expect(new Set(env.slack.reactions.map((r) => r.target.id))).toEqual(
      new Set(triggers.map((t) => t.triggerMessage!.id)),
    );

    gate.thaw();
    await waitUntil(() => env.emulator.runs.count() === 8, { message: 'eight runs created' });
    await engine.stop();
  });
});
