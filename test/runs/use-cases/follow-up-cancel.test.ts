import { describe, expect, it } from 'vitest';
import { RUN_MODES } from '../../../src/core/command/run-modes.js';
import { formatDuration } from '../../../src/core/message/duration.js';
import { viewOf } from '../../../src/core/message/run-view.js';
import { flushOutbox, handle, slackMention, slackReply, testEnvPerTest } from '../fixtures.js';

const env = testEnvPerTest();

async function startIn(
  threadKey?: string,
  text = 'do the work [slow]',
): Promise<{ threadKey: string; runId: string }> {
  const trigger = slackMention({ text, ...(threadKey ? { threadKey } : {}) });
  await handle(env, trigger);
  const thread = await env.store.threads.get(trigger.threadKey);
  const runId = thread!.currentRunId!;
  // Hold a live, cancellable state: a PENDING run answers cancel with 409.
  if (text.includes('[slow]')) env.emulator.setState(runId, 'INPROGRESS');
  return { threadKey: trigger.threadKey, runId };
}

function noticeTexts(): string[] {
  return env.slack.posts.flatMap((p) => (p.message.type === 'notice' ? [p.message.text] : []));
}

describe('follow-ups', () => {
  it('a message in a thread with a run is sent to that run, confirmed with a reaction', async () => {
    const { threadKey, runId } = await startIn();
    const reply = slackReply(threadKey, { text: 'also add a test' });
    await handle(env, reply);
    expect(env.emulator.runs.count()).toBe(1);
    expect(env.emulator.followups.map((f) => [f.runId, f.message])).toEqual([
      [runId, 'also add a test'],
    ]);
    await flushOutbox(env);
    expect(env.slack.reactions).toContainEqual({
      target: reply.triggerMessage,
      reaction: 'accepted',
    });
    const record = await env.store.runs.get(runId);
    expect(record).toMatchObject({ tracked: true, triggerMessage: reply.triggerMessage });
  });

  it('the message that started the episode before loses its live marks (👀, ⏸)', async () => {
    const first = slackMention({ text: 'work on it [slow]' });
    await handle(env, first);
    const runId = (await env.store.threads.get(first.threadKey))!.currentRunId!;
    env.emulator.setState(runId, 'INPROGRESS');
    await handle(env, slackReply(first.threadKey, { text: 'and the docs' }));
    await flushOutbox(env);
    // Only what the relay put there comes off: 👀, not 👌 or ⏸ it never added.
    expect(env.slack.unreactions).toEqual([{ target: first.triggerMessage, reactions: ['seen'] }]);
  });

  it('after BLOCKED (⏸ replaced 👀), the earlier message loses only ⏸', async () => {
    const first = slackMention({ text: 'work on it [slow]' });
    await handle(env, first);
    const runId = (await env.store.threads.get(first.threadKey))!.currentRunId!;
    env.emulator.setState(runId, 'BLOCKED');
    await env.engine.tracker.runCycle();
    await flushOutbox(env);
    expect(env.slack.reactions.at(-1)).toEqual({
      target: first.triggerMessage,
      reaction: 'blocked',
      replaces: ['seen'],
    });
    await handle(env, slackReply(first.threadKey, { text: 'use main' }));
    await flushOutbox(env);
    expect(env.slack.unreactions).toEqual([
      { target: first.triggerMessage, reactions: ['blocked'] },
    ]);
  });

  it('cancel in a thread has its own acknowledgement, not the follow-up one', async () => {
    const { threadKey, runId } = await startIn();
    const cancel = slackReply(threadKey, { text: 'cancel' });
    await handle(env, cancel);
    await flushOutbox(env);
    expect(env.emulator.runs.get(runId)?.state).toMatch(/CANCEL/);
    expect(env.slack.reactions).toContainEqual({
      target: cancel.triggerMessage,
      reaction: 'cancel_requested',
    });
    expect(env.slack.reactions.filter((r) => r.reaction === 'accepted')).toEqual([]);
  });

  it.each(RUN_MODES)('a follow-up with mode=%s sends that mode', async (mode) => {
    const { threadKey, runId } = await startIn();
    await handle(env, slackReply(threadKey, { text: `mode=${mode} now the tests` }));
    expect(env.emulator.followups.map((f) => [f.runId, f.message, f.mode])).toEqual([
      [runId, 'now the tests', mode],
    ]);
  });

  it('mode= on a follow-up to a run still working is not silently dropped: the asker is told', async () => {
    const { threadKey, runId } = await startIn();
    await handle(env, slackReply(threadKey, { text: 'mode=plan now the tests' }));
    await flushOutbox(env);
    expect(env.emulator.followups.map((f) => [f.runId, f.mode])).toEqual([[runId, 'plan']]);
    const told = env.slack.posts.flatMap((p) =>
      p.message.type === 'notice' ? [{ to: p.to.privateTo, text: p.message.text }] : [],
    );
    // One line to the asker: the mode note already says where the message went.
    expect(told).toEqual([
      { to: 'U1', text: expect.stringMatching(/still working.*`mode=plan` applies only/) },
    ]);
  });

  it('mode= on a follow-up to an ended run starts the new execution in that mode, no mode note', async () => {
    const { threadKey, runId } = await startIn();
    env.emulator.setState(runId, 'SUCCEEDED');
    await handle(env, slackReply(threadKey, { text: 'mode=plan now the tests' }));
    await flushOutbox(env);
    expect(env.emulator.followups.map((f) => [f.runId, f.mode])).toEqual([[runId, 'plan']]);
    // Only where the message went, from the service's answer.
    expect(noticeTexts()).toEqual(['Your message: resumed the run.']);
  });

  it("`new` starts a fresh run that becomes the thread's current run", async () => {
    const { threadKey, runId } = await startIn();
    await handle(env, slackReply(threadKey, { text: 'new start over with a different approach' }));
    expect(env.emulator.runs.count()).toBe(2);
    const current = (await env.store.threads.get(threadKey))!.currentRunId;
    expect(current).not.toBe(runId);
    expect(
      env.emulator.runs.get(current!)!.prompt.startsWith('start over with a different approach'),
    ).toBe(true);
    expect(env.emulator.followups).toHaveLength(0);
  });

  it('a follow-up whose answer was lost is not sent twice; the person is told', async () => {
    const { threadKey, runId } = await startIn();
    env.emulator.faults.dropNext(1, {
      afterProcessing: true,
      route: 'POST /agent/runs/:id/followups',
    });
    await handle(env, slackReply(threadKey, { text: 'did this arrive?' }));
    await env.engine.inbox.runOnce();
    expect(env.emulator.followups.filter((f) => f.runId === runId)).toHaveLength(1);
    expect(await env.store.inboxQueue.depth()).toBe(0);
    await flushOutbox(env);
    expect(noticeTexts().some((t) => /may or may not have arrived/.test(t))).toBe(true);
  });
});

describe('cancel', () => {
  it("the requester cancels the thread's run", async () => {
    const { threadKey, runId } = await startIn();
    await handle(env, slackReply(threadKey, { text: 'cancel' }));
    expect(env.emulator.runs.get(runId)!.state).toBe('CANCELLED');
    expect(env.metrics.counters.get('cancels')).toBe(1);
  });

  it('someone else is refused and nothing reaches the service; an allowlisted user may', async () => {
    const { threadKey, runId } = await startIn();
    const before = env.emulator.requests.get('POST /agent/runs/:id/cancel');
    await handle(
      env,
      slackReply(threadKey, { text: 'cancel', actor: { id: 'U2', name: 'mallory' } }),
    );
    expect(env.emulator.requests.get('POST /agent/runs/:id/cancel')).toBe(before);
    expect(env.emulator.runs.get(runId)!.state).not.toBe('CANCELLED');
    await flushOutbox(env);
    expect(noticeTexts().some((t) => /Only the person who started/.test(t))).toBe(true);

    await handle(
      env,
      slackReply(threadKey, { text: `cancel ${runId}`, actor: { id: 'UADMIN', admin: true } }),
    );
    expect(env.emulator.runs.get(runId)!.state).toBe('CANCELLED');
  });

  it('the Cancel button carries the run id', async () => {
    const { runId } = await startIn();
    await handle(
      env,
      slackMention({
        kind: 'cancel_button',
        text: '',
        runId,
        triggerMessage: undefined,
        replyPrivatelyTo: 'U1',
        threadKey: 'slack:T1:C1:1700000555.000100',
      }),
    );
    expect(env.emulator.runs.get(runId)!.state).toBe('CANCELLED');
  });

  it('409 while PENDING is retried and succeeds', async () => {
    const { threadKey, runId } = await startIn();
    env.emulator.faults.failNext(2, 409, { route: 'POST /agent/runs/:id/cancel' });
    await handle(env, slackReply(threadKey, { text: 'cancel' }));
    expect(env.emulator.runs.get(runId)!.state).toBe('CANCELLED');
    expect(env.emulator.requests.get('POST /agent/runs/:id/cancel')).toBe(3);
  });

  it('409 that persists tells the person to retry shortly', async () => {
    const { threadKey, runId } = await startIn(undefined, 'wait here [pending]');
    env.emulator.setState(runId, 'PENDING');
    await handle(env, slackReply(threadKey, { text: 'cancel' }));
    expect(env.emulator.requests.get('POST /agent/runs/:id/cancel')).toBe(4);
    await flushOutbox(env);
    expect(
      noticeTexts().some((t) => /still being set up.*try again in a few seconds/i.test(t)),
    ).toBe(true);
  });

  it('an ended run: says it already ended', async () => {
    const { threadKey, runId } = await startIn(undefined, 'quick one');
    env.emulator.setState(runId, 'SUCCEEDED');
    await handle(env, slackReply(threadKey, { text: 'cancel' }));
    await flushOutbox(env);
    expect(noticeTexts().some((t) => /already ended/.test(t))).toBe(true);
  });

  it('a run type that cannot be cancelled: says so', async () => {
    const { threadKey } = await startIn(undefined, 'keep going [nocancel] [slow]');
    await handle(env, slackReply(threadKey, { text: 'cancel' }));
    await flushOutbox(env);
    expect(noticeTexts().some((t) => /cannot be cancelled/.test(t))).toBe(true);
  });

  it('no run in the thread: says so with the right form', async () => {
    await handle(env, slackMention({ text: 'cancel' }));
    await flushOutbox(env);
    const notice = env.slack.posts[0]!.message;
    expect(notice).toMatchObject({ type: 'notice', usage: '/agent cancel [run_id]' });
  });
});

describe('run time after a follow-up', () => {
  it("the service's cumulative run_time is not added to again after a follow-up", async () => {
    const { threadKey, runId } = await startIn(undefined, 'quick one');
    // The emulator reports whole seconds: each execution runs a little over one.
    env.emulator.setState(runId, 'INPROGRESS');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const ended = env.emulator.setState(runId, 'SUCCEEDED');
    expect(ended?.run_time).toBe('PT1S');
    await handle(env, slackReply(threadKey, { text: 'and the docs' }));
    const record = await env.store.runs.get(runId);
    expect(record?.earlierRunMs).toBe(1_000);

    // The second execution ends: the service's run_time covers both.
    env.emulator.setState(runId, 'INPROGRESS');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const again = env.emulator.setState(runId, 'SUCCEEDED');
    expect(again?.run_time).toBe('PT2S');
    const view = viewOf(record, again!, Date.now());
    expect(view.runTime).toBe(formatDuration(2_000));
  });
});
