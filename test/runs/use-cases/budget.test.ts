/**
 * A place's monthly budget, end to end through the engine on the emulator: refused at 100 %,
 * started at 99 %, the month rolling over, follow-ups over budget, no budget, a race.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { monthNameUtc, monthStartUtc } from '../../../src/core/place.js';
import { runUsage } from '../../../src/core/run-usage.js';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import type { RunRecord } from '../../../src/core/ports/index.js';
import {
  flushOutbox,
  githubComment,
  handle,
  slackMention,
  slackReply,
  testEnvPerTest,
} from '../fixtures.js';

// The engine's clock runs with the inbox's (real time), moved ahead by `skew` when a test needs.
const clock = { skew: 0, now: () => Date.now() + clock.skew };
const env = testEnvPerTest({ deps: { clock } });
beforeEach(() => {
  clock.skew = 0;
});
const MONTH = () => `${monthNameUtc(clock.now())} (UTC)`;

let seq = 0;
/** A run of the place that reported `costUsd`, created at `createdAt`. */
async function spent(costUsd: number, createdAt = clock.now(), threadKey = 'slack:T1:C1:1.1') {
  seq += 1;
  const run: RunRecord = {
    runId: `spent-${seq}`,
    threadKey,
    platform: threadKey.startsWith('github:') ? 'github' : 'slack',
    requestId: `spent-req-${seq}`,
    requester: { id: 'U9' },
    title: 'earlier work',
    state: 'SUCCEEDED',
    applied: [],
    costUsd,
    nextCheckAt: createdAt,
    checkIntervalMs: 1_000,
    tracked: false,
    createdAt,
    updatedAt: createdAt,
  };
  await env.store.runs.insert(run);
}

async function budget(scope: string, usd: string): Promise<void> {
  await env.store.settings.set(scope, 'budget', usd, 'U1', clock.now());
}

async function posted(): Promise<MessageModel[]> {
  await flushOutbox(env);
  return [...env.slack.posts, ...env.github.posts].map((p) => p.message);
}

/** The current run of a thread. */
async function threadRun(threadKey: string): Promise<string | undefined> {
  return (await env.store.threads.get(threadKey))?.currentRunId;
}

/** Until every run of the relay has ended and its last cost is recorded. */
async function settled(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await env.engine.tracker.runCycle();
    const unknown = await env.store.runs.unknownCostSince('', 0, { limit: 1 });
    if (unknown.length === 0) return;
    if (Date.now() > deadline) throw new Error('the runs never settled');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function notices(messages: MessageModel[]): string[] {
  return messages.flatMap((m) => (m.type === 'notice' ? [m.text] : []));
}

describe('budget per place', () => {
  it('a run that would start at 100 % is refused before anything is sent', async () => {
    await budget('slack:T1:C1', '10');
    await spent(6);
    await spent(4);
    await handle(env, slackMention({ text: 'one more thing' }));
    expect(env.emulator.runs.count()).toBe(0);
    const messages = await posted();
    // No 👀, no "Starting…": only the refusal.
    expect(messages.map((m) => m.type)).toEqual(['notice']);
    expect(env.slack.reactions).toEqual([]);
    const [text] = notices(messages);
    expect(text).toContain(`about $10.00 of its $10 budget for ${MONTH()}`);
    expect(text).toContain(
      'nothing more is sent to the agent here (new runs, or follow-ups to runs already here)',
    );
    expect(text).toContain('An admin of agent-relay can raise it');
    expect(messages[0]).toMatchObject({ usage: '/agent config budget=<US dollars>' });
  });

  it('at 99 % the run starts, and the place is told once that it passed 80 %', async () => {
    await budget('slack:T1:C1', '20');
    await spent(19.8);
    await handle(env, slackMention({ text: 'one more thing' }));
    expect(env.emulator.runs.count()).toBe(1);
    const told = notices(await posted());
    expect(told).toHaveLength(1);
    expect(told[0]).toContain(`about $19.80 of its $20 budget for ${MONTH()} (99 %)`);
  });

  it("the month's notice is said once, also when the next run starts past 80 %", async () => {
    await budget('slack:T1:C1', '20');
    await spent(16.5);
    await handle(env, slackMention({ text: 'one more thing' }));
    expect(notices(await posted())).toHaveLength(1);
    // Once that run's cost is known ($1.24, still under the budget), the next one starts.
    await settled();
    await handle(env, slackMention({ text: 'and another' }));
    expect(env.emulator.runs.count()).toBe(2);
    expect(notices(await posted())).toHaveLength(1);
  });

  it('only this month counts: the month rolls over at midnight UTC', async () => {
    await budget('slack:T1:C1', '10');
    await spent(25, monthStartUtc(clock.now()) - 1);
    await handle(env, slackMention({ text: 'fresh month' }));
    expect(env.emulator.runs.count()).toBe(1);
    expect(notices(await posted())).toEqual([]);
  });

  it('runs of other places do not count', async () => {
    await budget('slack:T1:C1', '10');
    await spent(50, clock.now(), 'slack:T1:C2:1.1');
    await spent(50, clock.now(), 'slack:T1:C11:1.1');
    await handle(env, slackMention({ text: 'mine to spend' }));
    expect(env.emulator.runs.count()).toBe(1);
  });

  it('over budget a follow-up is refused too, by whoever sends it', async () => {
    const first = slackMention({ text: 'start here' });
    await handle(env, first);
    expect(env.emulator.runs.count()).toBe(1);
    await settled();
    await budget('slack:T1:C1', '5');
    await spent(7);
    await handle(env, slackReply(first.threadKey, { text: 'and fix the docs too' }));
    await handle(
      env,
      slackReply(first.threadKey, { text: 'and the changelog', actor: { id: 'U2', name: 'bob' } }),
    );
    expect(env.emulator.followups).toHaveLength(0);
    const told = notices(await posted()).filter((t) => t.includes('budget'));
    expect(told).toHaveLength(2);
    expect(told[0]).toContain('This channel has spent about $8.24 of its $5 budget');
    expect(told[0]).toContain('or follow-ups to runs already here');
  });

  it("on GitHub too: a comment to the issue's run is refused over budget", async () => {
    await handle(env, githubComment({ text: '@agent-relay fix the typo in the README' }));
    expect(env.emulator.runs.count()).toBe(1);
    await settled();
    await budget('github:octo/widgets', '1');
    await handle(env, githubComment({ text: '@agent-relay and the one in CONTRIBUTING' }));
    expect(env.emulator.followups).toHaveLength(0);
    const [text] = notices(await posted()).filter((t) => t.includes('budget'));
    expect(text).toContain('This repository has spent about $1.24 of its $1 budget');
  });

  it('under a budget a follow-up waits for another run of unknown cost; to that run itself it goes', async () => {
    await budget('slack:T1:C1', '20');
    const first = slackMention({ text: 'a first thing' });
    await handle(env, first);
    await settled();
    const second = slackMention({ text: 'a long second thing [slow]' });
    await handle(env, second);
    expect(env.emulator.runs.count()).toBe(2);
    // The first run's cost is known; the second one's is not: the first waits.
    await handle(env, slackReply(first.threadKey, { text: 'one more change' }));
    expect(env.emulator.followups).toHaveLength(0);
    const [busy] = notices(await posted()).filter((t) => t.includes('one run works at a time'));
    expect(busy).toContain(`run ${await threadRun(second.threadKey)} is still working`);
    expect(busy).toContain('Your message was not sent');
    // Steering the run that holds the budget goes through.
    await handle(env, slackReply(second.threadKey, { text: 'also update the docs' }));
    expect(env.emulator.followups).toHaveLength(1);
  });

  it('without a budget, or once it is unset (budget=-), nothing is refused', async () => {
    await spent(1_000);
    await handle(env, slackMention({ text: 'no budget here' }));
    expect(env.emulator.runs.count()).toBe(1);
    await handle(env, slackMention({ text: 'config budget=5', actor: { id: 'U1', admin: true } }));
    await handle(env, slackMention({ text: 'refused now' }));
    expect(env.emulator.runs.count()).toBe(1);
    await handle(env, slackMention({ text: 'config budget=-', actor: { id: 'U1', admin: true } }));
    await handle(env, slackMention({ text: 'allowed again' }));
    expect(env.emulator.runs.count()).toBe(2);
  });

  it('on GitHub: the repository budget, and who can raise it', async () => {
    await budget('github:octo/widgets', '3');
    await spent(3.5, clock.now(), 'github:octo/widgets#7');
    await handle(env, githubComment({ text: '@agent-relay fix it' }));
    expect(env.emulator.runs.count()).toBe(0);
    const messages = await posted();
    const [text] = notices(messages);
    expect(text).toContain('This repository has spent about $3.50 of its $3 budget');
    expect(text).toContain('An admin of the repository can raise it');
    expect(messages[0]).toMatchObject({
      usage: '@agent-relay config budget=<US dollars>',
      mention: { platform: 'github' },
    });
  });

  it('two triggers racing near the budget start one run; the other is told why', async () => {
    await budget('slack:T1:C1', '10');
    await spent(9.5);
    await env.engine.sink.accept(slackMention({ text: 'first of two', anchorsNewThread: true }));
    await env.engine.sink.accept(slackMention({ text: 'second of two', anchorsNewThread: true }));
    await env.engine.inbox.runOnce();
    await env.engine.inbox.runOnce();
    expect(env.emulator.runs.count()).toBe(1);
    const told = notices(await posted());
    expect(told.filter((t) => t.includes('one run works at a time'))).toHaveLength(1);
  });

  it('a start the service refuses gives the budget back at once; one it will retry keeps it', async () => {
    await budget('slack:T1:C1', '20');
    env.emulator.faults.failNext(1, 422, { route: 'POST /agent/runs' });
    await handle(env, slackMention({ text: 'with a model the service does not know' }));
    expect(env.emulator.runs.count()).toBe(0);
    // Nothing was created: the next request is not held up by the refused one.
    await handle(env, slackMention({ text: 'the same with a model it knows' }));
    expect(env.emulator.runs.count()).toBe(1);
    await settled();
    // The service is down: the request will be tried again, and keeps its hold meanwhile.
    env.emulator.faults.failNext(1, 503, { route: 'POST /agent/runs', retryAfterSeconds: 0 });
    await handle(env, slackMention({ text: 'while the service is down' }));
    await handle(env, slackMention({ text: 'someone else meanwhile' }));
    expect(env.emulator.runs.count()).toBe(1);
    expect(notices(await posted()).some((t) => t.includes('another request is starting'))).toBe(
      true,
    );
  });

  it("list in a place shows each run's cost and ends with the month's total", async () => {
    await budget('slack:T1:C1', '20');
    await spent(2.5);
    await spent(9, monthStartUtc(clock.now()) - 1);
    const first = slackMention({ text: 'work to list [pending]' });
    await handle(env, first);
    const runId = (await env.store.threads.get(first.threadKey))!.currentRunId!;
    await env.store.runs.update(runId, { costUsd: 1.25 });
    await handle(env, slackMention({ text: 'list' }));
    const list = (await posted()).find((m) => m.type === 'run_list');
    if (list?.type !== 'run_list') throw new Error('no list posted');
    expect(list.month).toEqual({ name: monthNameUtc(clock.now()), spentUsd: 3.75, budgetUsd: 20 });
    // Held in PENDING, the service reports no usage yet: the recorded figure is shown.
    expect(runUsage(env.emulator.runs.get(runId)!)).toEqual({});
    expect(list.runs.find((r) => r.runId === runId)?.usage?.costUsd).toBe(1.25);
  });

  it("a person's budget across places: their new runs are refused anywhere, others' are not", async () => {
    await handle(
      env,
      slackMention({ text: 'config user=<@U1> budget=5', actor: { id: 'U9', admin: true } }),
    );
    expect(await env.store.settings.list('slack-user:T1:U1')).toMatchObject([
      { key: 'budget', value: '5' },
    ]);
    // U1 spent it in another channel of the workspace.
    await env.store.runs.insert({
      runId: 'u1-elsewhere',
      threadKey: 'slack:T1:C7:1.1',
      platform: 'slack',
      requestId: 'u1-elsewhere',
      requester: { id: 'U1', name: 'alice' },
      title: 'elsewhere',
      state: 'SUCCEEDED',
      applied: [],
      costUsd: 5.5,
      nextCheckAt: 0,
      checkIntervalMs: 1_000,
      tracked: false,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
    await handle(env, slackMention({ text: 'my next thing' }));
    expect(env.emulator.runs.count()).toBe(0);
    const messages = await posted();
    const refusal = messages.find((m) => m.type === 'notice' && m.text.startsWith('Your runs'));
    expect(refusal).toMatchObject({
      text: expect.stringContaining('about $5.50 of your $5 budget'),
    });
    // Someone else in the same channel is not held by U1's budget.
    await handle(env, slackMention({ text: 'their thing', actor: { id: 'U2', name: 'bob' } }));
    expect(env.emulator.runs.count()).toBe(1);
  });

  it('a person named by a typed name (not a mention Slack resolved) is refused, and nothing is stored', async () => {
    await handle(
      env,
      slackMention({ text: 'config user=@alice budget=5', actor: { id: 'U9', admin: true } }),
    );
    await flushOutbox(env);
    const messages = await posted();
    expect(messages.some((m) => m.type === 'notice' && m.text.includes('member ID'))).toBe(true);
    expect(await env.store.settings.list('slack-user:T1:alice')).toEqual([]);
    expect(await env.store.settings.list('slack:T1:C1')).toEqual([]);
  });

  it("only an admin sets a person's budget in Slack", async () => {
    await handle(env, slackMention({ text: 'config user=<@U2> budget=1' }));
    expect(await env.store.settings.list('slack-user:T1:U2')).toEqual([]);
  });
});
