/**
 * `status` and `cancel` without a run id: in a thread, its run; from a slash command (which
 * has no thread), the asker's latest live run in this channel, or a choice when there are
 * several. `status` refreshes the run's one status card instead of posting a second one.
 */
import { describe, expect, it } from 'vitest';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import {
  flushOutbox,
  handle,
  slackMention,
  slackReply,
  slackSlash,
  testEnvPerTest,
} from '../fixtures.js';

const env = testEnvPerTest();

async function startBySlash(text: string, user = 'U1', channel = 'C1'): Promise<string> {
  const before = new Set(env.emulator.runs.all().map((r) => r.run_id));
  await handle(env, slackSlash(text, user, channel));
  const run = env.emulator.runs.all().find((r) => !before.has(r.run_id))!;
  env.emulator.setState(run.run_id, 'INPROGRESS');
  await flushOutbox(env);
  return run.run_id;
}

function answers(): MessageModel[] {
  return env.slack.posts.filter((p) => p.to.privateTo === 'U1').map((p) => p.message);
}

describe('status and cancel from a slash command', () => {
  it("`/agent status` answers about the asker's latest live run in this channel", async () => {
    await startBySlash('someone else works', 'U2');
    await startBySlash('work elsewhere', 'U1', 'C2');
    const runId = await startBySlash('fix the flaky test');
    await handle(env, slackSlash('status'));
    await flushOutbox(env);
    const [answer] = answers();
    expect(answer).toMatchObject({ type: 'run_brief', run: { runId } });
  });

  it('`/agent cancel` cancels that run, with its own acknowledgement', async () => {
    const runId = await startBySlash('fix the flaky test');
    await handle(env, slackSlash('cancel'));
    await flushOutbox(env);
    expect(env.emulator.runs.get(runId)?.state).toMatch(/CANCEL/);
    const [answer] = answers();
    expect(answer).toMatchObject({ type: 'notice', tone: 'info' });
    expect(answer?.type === 'notice' && answer.text).toMatch(/Cancelling/);
  });

  it('several live runs: the asker chooses, with a button per run', async () => {
    const first = await startBySlash('first task');
    const second = await startBySlash('second task');
    await handle(env, slackSlash('cancel'));
    await flushOutbox(env);
    const [answer] = answers();
    expect(answer).toMatchObject({ type: 'run_choice', action: 'cancel' });
    const runs = answer?.type === 'run_choice' ? answer.runs.map((r) => r.runId) : [];
    expect(runs).toEqual([second, first]);
    expect(env.emulator.runs.get(first)?.state).toBe('INPROGRESS');
  });

  it('no live run of the asker here: says so privately, with the form that names a run', async () => {
    await handle(env, slackSlash('status'));
    await flushOutbox(env);
    const [answer] = answers();
    expect(answer).toMatchObject({ type: 'notice' });
    expect(answer?.type === 'notice' && answer.usage).toContain('status');
  });
});

describe('status refreshes the one status card', () => {
  it('a `status` in the thread edits the card and answers briefly; no second card', async () => {
    const mention = slackMention({ text: 'do the work' });
    await handle(env, mention);
    const runId = (await env.store.threads.get(mention.threadKey))!.currentRunId!;
    await flushOutbox(env);
    env.emulator.setState(runId, 'INPROGRESS');
    await handle(env, slackReply(mention.threadKey, { text: 'status' }));
    await flushOutbox(env);
    const cards = env.slack.posts.filter((p) => p.message.type === 'run_status');
    expect(cards).toHaveLength(1);
    const history = env.slack.historyOf(cards[0]!.ref);
    expect(history.at(-1)).toMatchObject({ run: { state: { name: 'INPROGRESS' } } });
    const brief = env.slack.posts.find((p) => p.message.type === 'run_brief');
    expect(brief?.to.privateTo).toBe('U1');
  });
});
