import { describe, expect, it } from 'vitest';
import { createAgentClient } from '../../../src/agent/index.js';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import type { AgentService } from '../../../src/core/ports/index.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { flushOutbox, handle, slackMention, startTestEnv, type TestEnv } from '../fixtures.js';
import { worldPerTest } from '../../helpers/world-per-test.js';

const start = worldPerTest(startTestEnv);

/** Notices told to the person: posted, or edited into the "Starting…" message. */
function notices(e: TestEnv): string[] {
  return [...e.slack.posts, ...e.slack.updates].flatMap((p) =>
    p.message.type === 'notice' ? [p.message.text] : [],
  );
}

async function drainInbox(e: TestEnv, timeoutMs = 3_000): Promise<void> {
  await waitUntil(
    async () => {
      await e.engine.inbox.runOnce();
      return (await e.store.inboxQueue.depth()) === 0;
    },
    { timeoutMs, message: 'inbox drained' },
  );
}

describe('service failures', () => {
  it('503 for a while: told once, the run is created after recovery, exactly one run', async () => {
    const env = await start({ options: { inboxRetryDelaysMs: [30, 30, 30, 30, 30] } });
    env.emulator.faults.failNext(3, 503, { route: 'POST /agent/runs', retryAfterSeconds: 0 });
    const trigger = slackMention({ text: 'survive the outage' });
    await handle(env, trigger);
    const item = (await env.store.inboxQueue.depth()) === 1;
    expect(item).toBe(true);
    // The person is told while the outage lasts.
    await flushOutbox(env);
    await drainInbox(env);
    expect(env.emulator.runs.count()).toBe(1);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(4);
    await flushOutbox(env);
    const waits = notices(env).filter((t) => /unavailable right now/.test(t));
    expect(waits).toHaveLength(1);
    // One card: the wait notice, edited to the run once it exists.
    expect(env.slack.posts).toHaveLength(1);
    expect(env.slack.historyOf(env.slack.posts[0]!.ref).at(-1)?.type).toBe('run_status');
  });

  it('an outage longer than the attempts: a final apology, the item failed, no run', async () => {
    const env = await start({ options: { inboxRetryDelaysMs: [10, 10] } });
    env.emulator.faults.failNext(10, 503, { route: 'POST /agent/runs', retryAfterSeconds: 0 });
    await handle(env, slackMention({ text: 'never gets through' }));
    await flushOutbox(env);
    await drainInbox(env);
    expect(env.emulator.runs.count()).toBe(0);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(3);
    await flushOutbox(env);
    const texts = notices(env);
    expect(texts.filter((t) => /unavailable right now/.test(t))).toHaveLength(1);
    expect(texts.filter((t) => /stayed unavailable/.test(t))).toHaveLength(1);
  });

  it("401: tells that the bot's key is wrong, no retry", async () => {
    const env = await start();
    const badKey = createAgentClient({
      baseUrl: env.emulator.baseUrl,
      apiKey: 'wrong-key',
      maxRetries: 0,
    });
    const engine = env.makeEngine(env.store, { agent: badKey });
    await engine.sink.accept(slackMention({ text: 'hello' }));
    await engine.inbox.runOnce();
    expect(await env.store.inboxQueue.depth()).toBe(0);
    await flushOutbox({ engine });
    // The error was queued behind "Starting…" before either went out: the card says the error.
    expect(env.slack.posts).toHaveLength(1);
    const history = env.slack.historyOf(env.slack.posts[0]!.ref);
    expect(history.map((m) => m.type)).toEqual(['notice']);
    const last = history.at(-1) as MessageModel;
    expect(last).toMatchObject({ type: 'notice', tone: 'error', mention: { id: 'U1' } });
    expect(last.type === 'notice' && last.text).toMatch(/API key/);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(1);
  });

  it('a 400 from the service is shown with its detail', async () => {
    const env = await start();
    env.emulator.faults.failNext(1, 400, { route: 'POST /agent/runs' });
    await handle(env, slackMention({ text: 'do it' }));
    await flushOutbox(env);
    expect(env.emulator.runs.count()).toBe(0);
    const texts = notices(env);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/did not accept the request: injected fault: 400/);
    // An expected answer, told to the person: one info line, no error, no stack trace.
    const logged = env.logger.lines.filter((l) => l.msg === 'trigger failed');
    expect(logged.map((l) => l.level)).toEqual(['info']);
    expect(logged[0]?.obj.err).toBeUndefined();
    expect(String(logged[0]?.obj.error)).toMatch(/400/);
  });

  it('a bug in a port does not kill the worker: bounded retries, then an apology', async () => {
    const env = await start({ options: { inboxRetryDelaysMs: [5, 5, 5, 5] } });
    const real = env.agent;
    const broken: AgentService = {
      ...real,
      createRun: async () => {
        throw new TypeError('cannot read properties of undefined');
      },
      listRuns: (q, o) => real.listRuns(q, o),
    };
    const engine = env.makeEngine(env.store, { agent: broken });
    await engine.sink.accept(slackMention({ text: 'trip the bug' }));
    await waitUntil(async () => {
      await engine.inbox.runOnce();
      return (await env.store.inboxQueue.depth()) === 0;
    });
    await flushOutbox({ engine });
    expect(notices(env).filter((t) => /internal error/.test(t))).toHaveLength(1);
    expect(
      env.logger.lines.filter((l) => l.level === 'error' && l.msg === 'trigger failed').length,
    ).toBe(1);
    // The worker still handles the next trigger.
    await engine.sink.accept(slackMention({ text: 'help' }));
    await engine.inbox.runOnce();
    await flushOutbox({ engine });
    expect(env.slack.posts.at(-1)!.message.type).toBe('help');
  });
});

describe('reconciliation on retry', () => {
  it('a create that reached the service before a crash is found, not repeated', async () => {
    const env = await start();
    const trigger = slackMention({ text: 'made it before the crash' });
    await env.store.inbox.add(trigger, Date.now());
    // The earlier attempt: claimed, the run created, then the process died before recording.
    const [claimed] = await env.store.inboxQueue.claim(Date.now(), 30_000, 1);
    const runId = env.emulator.createRunDirect({
      prompt: 'made it before the crash',
      metadata: { relay_request: `slack:${trigger.deliveryId}`, relay_thread: trigger.threadKey },
    }).run_id;
    await env.store.inbox.retryLater(claimed!.id, Date.now(), 'crashed');

    await env.engine.inbox.runOnce();
    expect(env.emulator.runs.count()).toBe(1);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(0);
    expect((await env.store.threads.get(trigger.threadKey))?.currentRunId).toBe(runId);
    expect(await env.store.runs.getByRequest(`slack:${trigger.deliveryId}`)).toMatchObject({
      runId,
      tracked: true,
    });
  });

  it('an item left processing by a crashed worker is reconciled when its lease runs out', async () => {
    const env = await start({ options: { leaseMs: 100 } });
    const trigger = slackMention({ text: 'crash mid-create' });
    await env.store.inbox.add(trigger, Date.now());
    await env.store.inboxQueue.claim(Date.now(), 100, 1);
    env.emulator.createRunDirect({
      prompt: 'crash mid-create',
      metadata: { relay_request: `slack:${trigger.deliveryId}` },
    });
    await waitUntil(async () => (await env.engine.inbox.runOnce()) > 0, { timeoutMs: 2_000 });
    expect(env.emulator.runs.count()).toBe(1);
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(0);
  });

  it('a connection dropped after the service processed the create makes one run', async () => {
    const env = await start();
    env.emulator.faults.dropNext(1, { afterProcessing: true, route: 'POST /agent/runs' });
    await handle(env, slackMention({ text: 'lost answer' }));
    await drainInbox(env);
    expect(env.emulator.runs.count()).toBe(1);
    expect(await env.store.runs.listTracked()).toHaveLength(1);
  });
});
