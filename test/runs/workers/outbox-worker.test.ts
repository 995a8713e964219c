import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import type {
  OutboxPayload,
  PlatformCapabilities,
  RunRecord,
  Store,
} from '../../../src/core/ports/index.js';
import { NO_CAPABILITIES } from '../../../src/core/ports/index.js';
import type { Platform } from '../../../src/core/trigger.js';
import { DeliveryError } from '../../../src/core/ports/index.js';
import { notice } from '../../../src/core/message/render-model.js';
import { createOutboxWorker, type OutboxWorker } from '../../../src/runs/workers/outbox-worker.js';
import { waitUntil } from '../../helpers/wait-until.js';
import {
  createCountingMetrics,
  createSeqRandom,
  createTestLogger,
  openTempStore,
} from '../fixtures.js';
import {
  createRecordingNotifier,
  forbidden,
  rateLimited,
  type RecordingNotifier,
} from '../recording-notifier.js';

let temp: Awaited<ReturnType<typeof openTempStore>>;
let store: Store;
let slack: RecordingNotifier;
let github: RecordingNotifier;
let t: number;
let worker: OutboxWorker;
let logger: ReturnType<typeof createTestLogger>;
let metrics: ReturnType<typeof createCountingMetrics>;

const KEY = 'slack:T1:C1:1700000000.000100';

function makeWorker(
  notifiers: { slack?: RecordingNotifier; github?: RecordingNotifier },
  maxAttempts = 3,
  capabilities?: Partial<Record<Platform, PlatformCapabilities>>,
  concurrency?: number,
): OutboxWorker {
  return createOutboxWorker({
    store,
    notifiers,
    ...(capabilities ? { capabilities } : {}),
    clock: { now: () => t },
    random: createSeqRandom(),
    logger,
    metrics,
    options: {
      leaseMs: 10_000,
      pollMs: 10,
      maxAttempts,
      drainMs: 1_000,
      retryBaseMs: 1_000,
      maxRetryDelayMs: 60_000,
      ...(concurrency ? { concurrency } : {}),
    },
  });
}

/** A worker on the real clock, for tests of the running loop (start, wake, poll). */
function loopWorker(
  notifiers: { slack?: RecordingNotifier; github?: RecordingNotifier },
  pollMs: number,
  gatherMs?: number,
): OutboxWorker {
  return createOutboxWorker({
    store,
    notifiers,
    clock: { now: () => Date.now() },
    random: createSeqRandom(),
    logger,
    metrics,
    options: {
      leaseMs: 10_000,
      pollMs,
      maxAttempts: 3,
      drainMs: 1_000,
      ...(gatherMs === undefined ? {} : { gatherMs }),
    },
  });
}

beforeEach(async () => {
  temp = await openTempStore();
  store = temp.store;
  slack = createRecordingNotifier('slack');
  github = createRecordingNotifier('github');
  logger = createTestLogger();
  metrics = createCountingMetrics();
  t = 1_700_000_000_000;
  worker = makeWorker({ slack, github });
});
afterEach(async () => {
  await worker.stop();
  await temp.cleanup();
});

function run(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    runId: 'run-1',
    threadKey: KEY,
    platform: 'slack',
    requestId: 'slack:Ev1',
    requester: { id: 'U1' },
    title: 'a run',
    state: 'QUEUED',
    applied: [],
    nextCheckAt: t,
    checkIntervalMs: 1000,
    tracked: true,
    createdAt: t,
    updatedAt: t,
    ...overrides,
  };
}

const say = (text: string): MessageModel => notice('info', text);
const post = (text: string, threadKey = KEY): OutboxPayload => ({
  kind: 'post',
  destination: { threadKey },
  message: say(text),
});

async function drain(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i += 1) if ((await worker.runOnce()) === 0) return;
}

describe('outbox worker', () => {
  it('posts the status message once, then edits it, and stores its ref', async () => {
    await store.runs.insert(run());
    for (const state of ['QUEUED', 'INPROGRESS', 'SUCCEEDED']) {
      await store.outbox.enqueue(
        {
          kind: 'status',
          destination: { threadKey: KEY },
          runId: 'run-1',
          message: say(state),
          observedAt: t - 500,
        },
        t,
      );
    }
    await drain();
    expect(slack.posts).toHaveLength(1);
    expect(slack.updates.map((u) => u.message)).toEqual([say('INPROGRESS'), say('SUCCEEDED')]);
    const ref = (await store.runs.get('run-1'))!.statusMessage!;
    expect(ref).toEqual(slack.posts[0]!.ref);
    expect(slack.historyOf(ref)).toEqual([say('QUEUED'), say('INPROGRESS'), say('SUCCEEDED')]);
    expect(metrics.observations.get('state_change_to_notification_seconds')).toEqual([
      0.5, 0.5, 0.5,
    ]);
  });

  it('posts a new status message when the old one is gone', async () => {
    await store.runs.insert(run({ statusMessage: { threadKey: KEY, id: 'deleted' } }));
    slack.failNext(1, new DeliveryError('not_found', 'message_not_found', false), 'update');
    await store.outbox.enqueue(
      { kind: 'status', destination: { threadKey: KEY }, runId: 'run-1', message: say('RUNNING') },
      t,
    );
    await drain();
    expect(slack.posts.map((p) => p.message)).toEqual([say('RUNNING')]);
    expect((await store.runs.get('run-1'))!.statusMessage).toEqual(slack.posts[0]!.ref);
  });

  it("keeps order per thread and delivers to each thread's platform", async () => {
    await store.outbox.enqueue(post('one'), t);
    await store.outbox.enqueue(post('gh', 'github:o/r#1'), t);
    await store.outbox.enqueue(post('two'), t);
    await store.outbox.enqueue(
      {
        kind: 'react',
        destination: { threadKey: KEY },
        target: { threadKey: KEY, id: 'C1:1' },
        reaction: 'seen',
      },
      t,
    );
    await drain();
    expect(slack.posts.map((p) => p.message)).toEqual([say('one'), say('two')]);
    expect(github.posts.map((p) => p.message)).toEqual([say('gh')]);
    expect(slack.reactions).toEqual([{ target: { threadKey: KEY, id: 'C1:1' }, reaction: 'seen' }]);
    expect(await store.outboxQueue.depth()).toBe(0);
  });

  it("retries a retryable failure after Retry-After, holding the thread's later items", async () => {
    slack.failNext(1, rateLimited(30_000));
    await store.outbox.enqueue(post('first'), t);
    await store.outbox.enqueue(post('second'), t);
    await drain();
    expect(slack.posts).toHaveLength(0);
    const [pending] = await store.outboxQueue.list({ status: 'pending' });
    expect(pending!.nextAttemptAt).toBeGreaterThanOrEqual(t + 30_000);
    t += 29_000;
    await drain();
    expect(slack.posts).toHaveLength(0);
    t += 1_001;
    await drain();
    expect(slack.posts.map((p) => p.message)).toEqual([say('first'), say('second')]);
  });

  it('parks a permanent failure at once, and a failing one after the bound', async () => {
    slack.failNext(1, forbidden());
    await store.outbox.enqueue(post('forbidden'), t);
    await drain();
    // The one refused delivery is counted: a parked row never says "Attempts 0".
    expect((await store.outboxQueue.list({ status: 'parked' })).map((i) => i.attempts)).toEqual([
      1,
    ]);

    slack.failNext(99, rateLimited());
    await store.outbox.enqueue(post('keeps failing'), t);
    for (let i = 0; i < 5; i += 1) {
      t += 120_000;
      await drain();
    }
    const parked = await store.outboxQueue.list({ status: 'parked' });
    expect(parked).toHaveLength(2);
    expect(slack.calls.filter((c) => !c.ok)).toHaveLength(1 + 3);
    // Parked after the bound: as many attempts recorded as were made.
    expect(parked.map((i) => i.attempts)).toEqual([1, 3]);
    expect(logger.lines.filter((l) => l.msg === 'notification parked')).toHaveLength(2);
  });

  it('parks a notification for a platform without a notifier, with a clear error', async () => {
    worker = makeWorker({ slack });
    await store.outbox.enqueue(post('to github', 'github:o/r#2'), t);
    await drain();
    const [parked] = await store.outboxQueue.list({ status: 'parked' });
    expect(parked!.lastError).toMatch(/no notifier for platform github/);
  });

  it('runs as a loop: woken work is delivered without waiting for a poll', async () => {
    worker = loopWorker({ slack }, 5_000);
    worker.start();
    await store.outbox.enqueue(post('hello'), Date.now());
    worker.wake();
    await waitUntil(() => slack.posts.length === 1, { timeoutMs: 2_000 });
    await worker.stop();
  });
});

describe('status edits made moot by the next one (status messages edited in place)', () => {
  const inPlace = { slack: { ...NO_CAPABILITIES, editsInPlace: true } };
  const status = (state: string, ids: { runId?: string; requestId?: string }): OutboxPayload => ({
    kind: 'status',
    destination: { threadKey: KEY },
    ...ids,
    message: say(state),
  });

  beforeEach(() => {
    worker = makeWorker({ slack, github }, 3, inPlace);
  });

  it("sends only the newest of a run's statuses queued back to back, as one post", async () => {
    await store.runs.insert(run());
    for (const state of ['QUEUED', 'CLAIMED', 'INPROGRESS']) {
      await store.outbox.enqueue(status(state, { runId: 'run-1' }), t);
    }
    await drain();
    expect(slack.posts.map((p) => p.message)).toEqual([say('INPROGRESS')]);
    expect(slack.updates).toEqual([]);
    expect((await store.runs.get('run-1'))!.statusMessage).toEqual(slack.posts[0]!.ref);
    expect(metrics.counters.get('outbox_superseded')).toBe(2);
    expect(await store.outboxQueue.depth()).toBe(0);
  });

  it('a "Starting…" followed by its run\'s first status: the status is the first post', async () => {
    await store.startMessages.open('slack:Ev1', KEY, t);
    await store.outbox.enqueue(status('Starting…', { requestId: 'slack:Ev1' }), t);
    await store.runs.insert(run());
    await store.outbox.enqueue(status('QUEUED', { runId: 'run-1' }), t);
    await drain();
    expect(slack.posts.map((p) => p.message)).toEqual([say('QUEUED')]);
    expect((await store.runs.get('run-1'))!.statusMessage).toEqual(slack.posts[0]!.ref);
  });

  it("sends every status when something else comes between, or another run's", async () => {
    await store.runs.insert(run());
    await store.runs.insert(run({ runId: 'run-2', requestId: 'slack:Ev2' }));
    await store.outbox.enqueue(status('QUEUED', { runId: 'run-1' }), t);
    await store.outbox.enqueue(post('a reply'), t);
    await store.outbox.enqueue(status('INPROGRESS', { runId: 'run-1' }), t);
    await store.outbox.enqueue(status('QUEUED', { runId: 'run-2' }), t);
    // Another request's "Starting…" is not this run's.
    await store.outbox.enqueue(status('Starting…', { requestId: 'slack:Ev9' }), t);
    await store.outbox.enqueue(status('INPROGRESS', { runId: 'run-2' }), t);
    await drain(20);
    expect(slack.posts.map((p) => p.message)).toEqual([
      say('QUEUED'),
      say('a reply'),
      say('QUEUED'),
      say('Starting…'),
    ]);
    expect(slack.updates.map((u) => u.message)).toEqual([say('INPROGRESS'), say('INPROGRESS')]);
    expect(metrics.counters.get('outbox_superseded')).toBeUndefined();
  });

  it('sends a status again after a failed attempt, which may have posted it', async () => {
    await store.runs.insert(run());
    await store.outbox.enqueue(status('QUEUED', { runId: 'run-1' }), t);
    slack.failNext(1, rateLimited(0), 'post');
    await drain();
    await store.outbox.enqueue(status('INPROGRESS', { runId: 'run-1' }), t);
    t += 60_000;
    await drain();
    expect(slack.posts.map((p) => p.message)).toEqual([say('QUEUED')]);
    expect(slack.updates.map((u) => u.message)).toEqual([say('INPROGRESS')]);
    expect(metrics.counters.get('outbox_superseded')).toBeUndefined();
  });

  it('a "Starting…" that also says whom to tell privately is sent, not made moot', async () => {
    await store.startMessages.open('slack:Ev1', KEY, t);
    await store.outbox.enqueue(
      {
        ...status('Starting…', { requestId: 'slack:Ev1' }),
        destination: { threadKey: KEY, responseUrl: 'https://hooks.slack.com/commands/T1/1/x' },
      },
      t,
    );
    await store.runs.insert(run());
    await store.outbox.enqueue(status('QUEUED', { runId: 'run-1' }), t);
    await drain();
    expect(slack.posts.map((p) => p.message)).toEqual([say('Starting…')]);
    expect(slack.updates.map((u) => u.message)).toEqual([say('QUEUED')]);
  });

  it('without in-place edits (each status its own message) every status is sent', async () => {
    worker = makeWorker({ slack, github }, 3, { slack: NO_CAPABILITIES });
    await store.runs.insert(run());
    await store.outbox.enqueue(status('QUEUED', { runId: 'run-1' }), t);
    await store.outbox.enqueue(status('INPROGRESS', { runId: 'run-1' }), t);
    await drain();
    expect(slack.posts.map((p) => p.message)).toEqual([say('QUEUED')]);
    expect(slack.updates.map((u) => u.message)).toEqual([say('INPROGRESS')]);
  });
});

/** The claims the workers make, counted at the store's port (the store itself is the real one). */
function countClaims(): { looks: Map<string, number>; depthReads: () => number } {
  const looks = new Map<string, number>();
  let depthReads = 0;
  const claim = store.outboxQueue.claim.bind(store.outboxQueue);
  const depth = store.inboxQueue.depth.bind(store.inboxQueue);
  store = {
    ...store,
    outboxQueue: {
      ...store.outboxQueue,
      claim: (now, leaseMs, limit, filter) => {
        const key = `${filter?.threadKeyPrefix ?? '*'}${filter?.lane ?? ''}`;
        looks.set(key, (looks.get(key) ?? 0) + 1);
        return claim(now, leaseMs, limit, filter);
      },
    },
    inboxQueue: {
      ...store.inboxQueue,
      depth: () => {
        depthReads += 1;
        return depth();
      },
    },
  };
  return { looks, depthReads: () => depthReads };
}

describe('an idle relay asks the database little', () => {
  it("a platform that is off has its lanes look only now and then; an on platform's low lane looks on its own poll", async () => {
    const { looks, depthReads } = countClaims();
    // Only Slack is on. Its lane looks every 10 ms (no gathering after a poll).
    worker = loopWorker({ slack }, 10, 0);
    worker.start();
    await waitUntil(() => (looks.get('slack:normal') ?? 0) >= 40, {
      message: 'forty looks in the Slack lane',
    });
    const slackLooks = looks.get('slack:normal') ?? 0;
    // GitHub is off: its lanes looked once at start (leftovers to park), not at every poll.
    expect(looks.get('github:normal')).toBe(1);
    expect(looks.get('github:low') ?? 0).toBeLessThanOrEqual(1);
    // The Slack lane finding nothing does not wake its low lane each time: the low lane looks
    // on its own poll (four of the lane's), and counts the inbox as often. (Woken at each of
    // the lane's looks, it looked as often as the lane.)
    expect((looks.get('slack:low') ?? 0) * 2).toBeLessThan(slackLooks);
    expect(depthReads() * 2).toBeLessThan(slackLooks);
  });
});

describe('outbox lanes', () => {
  it("a wake for one platform's notifications looks in that platform's lane only", async () => {
    // Polls far apart: only a wake-up makes a lane look.
    worker = loopWorker({ slack, github }, 60_000);
    worker.start();
    // Both lanes looked once at start; a delivery woken after that proves they are asleep.
    await store.outbox.enqueue(post('first'), Date.now());
    worker.wake('slack');
    await waitUntil(() => slack.posts.length === 1, { message: 'the first Slack post' });

    await store.outbox.enqueue(post('for github', 'github:o/r#7'), Date.now());
    await store.outbox.enqueue(post('second'), Date.now());
    worker.wake('slack');
    await waitUntil(() => slack.posts.length === 2, { message: 'the second Slack post' });
    const early = await waitUntil(() => github.posts.length > 0, { timeoutMs: 300 }).catch(
      () => false,
    );
    expect(early).toBe(false);
    expect(await store.outboxQueue.list({ status: 'pending' })).toHaveLength(1);

    worker.wake('github');
    await waitUntil(() => github.posts.length === 1, { message: 'the GitHub post' });
    // Without a platform, every lane looks.
    await store.outbox.enqueue(post('third'), Date.now());
    await store.outbox.enqueue(post('again github', 'github:o/r#8'), Date.now());
    worker.wake();
    await waitUntil(() => slack.posts.length === 3 && github.posts.length === 2, {
      message: 'both lanes after a wake without a platform',
    });
  });

  it('a notice queued with a refusal goes first, though its lane has not looked yet', async () => {
    // The platform's lane gathers for a moment before it claims; the low lane does not, and
    // must not take that moment as idleness.
    worker = loopWorker({ slack }, 20);
    worker.start();
    // Each outsider in a thread of their own.
    const refusal = (n: number): OutboxPayload => ({
      ...post(`outsider ${n}`, `slack:T1:C1:170000100${n}.000100`),
      lane: 'low',
    });
    await store.outbox.enqueue(refusal(1), Date.now());
    worker.wake('slack');
    await waitUntil(() => slack.posts.length === 1, { message: 'the first refusal' });

    for (let round = 2; round <= 6; round += 1) {
      // Past the quiet time a low lane keeps after a look that found nothing.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await store.outbox.enqueue(refusal(round), Date.now());
      await store.outbox.enqueue(post(`notice ${round}`), Date.now());
      worker.wake('slack');
      await waitUntil(() => slack.posts.length === round * 2 - 1, {
        message: `round ${round}: the notice and the refusal`,
      });
      const [first] = slack.posts.slice(-2);
      expect(first?.message, `round ${round}`).toEqual(say(`notice ${round}`));
    }
  });

  it('a GitHub notifier that hangs does not hold up Slack deliveries', async () => {
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const hanging: RecordingNotifier = {
      ...github,
      async post() {
        await stuck;
        return { ref: { threadKey: 'github:o/r#1', id: 'issue:1' } };
      },
    };
    worker = makeWorker({ slack, github: hanging });
    // More GitHub notifications (one per thread) than the lane has slots.
    for (let i = 1; i <= 12; i += 1)
      await store.outbox.enqueue(post(`gh ${i}`, `github:o/r#${i}`), t);
    await store.outbox.enqueue(post('for slack'), t);
    worker.start();
    await waitUntil(() => slack.posts.length === 1, { message: 'the Slack post' });
    expect(slack.posts[0]!.message).toEqual(say('for slack'));
    release();
  });

  /** Deliveries held until released, counted per platform as they start. */
  async function inFlightPerLane(concurrency?: number): Promise<{
    inFlight: { slack: number; github: number };
    release: () => void;
  }> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inFlight = { slack: 0, github: 0 };
    const holding = (notifier: RecordingNotifier, platform: 'slack' | 'github') => ({
      ...notifier,
      async post() {
        inFlight[platform] += 1;
        await held;
        return { ref: { threadKey: KEY, id: `m${inFlight[platform]}` } };
      },
    });
    worker = makeWorker(
      { slack: holding(slack, 'slack'), github: holding(github, 'github') },
      3,
      undefined,
      concurrency,
    );
    // One notification per thread, more than either lane keeps in flight.
    for (let i = 1; i <= 40; i += 1) {
      await store.outbox.enqueue(post(`sl ${i}`, `slack:T1:C1:${1700000000 + i}.000100`), t);
      await store.outbox.enqueue(post(`gh ${i}`, `github:o/r#${i}`), t);
    }
    worker.start();
    return { inFlight, release };
  }

  /** Each lane holds `held` in flight, takes no more until one is done, then the rest. */
  async function expectLanesHeldAt(
    held: { slack: number; github: number },
    concurrency?: number,
  ): Promise<void> {
    const { inFlight, release } = await inFlightPerLane(concurrency);
    await waitUntil(() => inFlight.slack === held.slack && inFlight.github === held.github, {
      message: `${held.slack} Slack and ${held.github} GitHub deliveries in flight`,
    });
    // Held there: the lanes take no more until one of theirs is done.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(inFlight).toEqual(held);
    release();
    await waitUntil(() => inFlight.slack === 40 && inFlight.github === 40, {
      message: 'the rest once released',
    });
  }

  it('keeps 32 Slack deliveries in flight at once, and 8 of GitHub (its writes are paced)', async () => {
    await expectLanesHeldAt({ slack: 32, github: 8 });
  });

  it('with a concurrency given, every lane keeps that many', async () => {
    await expectLanesHeldAt({ slack: 8, github: 8 }, 8);
  });

  it('a claim filtered by prefix sees only that platform', async () => {
    await store.outbox.enqueue(post('gh', 'github:o/r#1'), t);
    await store.outbox.enqueue(post('sl'), t);
    const gh = await store.outboxQueue.claim(t, 1_000, 10, { threadKeyPrefix: 'github:' });
    expect(gh.map((i) => i.threadKey)).toEqual(['github:o/r#1']);
    const sl = await store.outboxQueue.claim(t, 1_000, 10, { threadKeyPrefix: 'slack:' });
    expect(sl.map((i) => i.threadKey)).toEqual([KEY]);
  });
});
