import { describe, expect, it } from 'vitest';
import type { CreateRunRequest } from '../../../src/agent/schemas.js';
import { RUN_MODES } from '../../../src/core/command/run-modes.js';
import {
  flushOutbox,
  githubComment,
  handle,
  slackMention,
  slackReply,
  testEnvPerTest,
} from '../fixtures.js';

const env = testEnvPerTest();

describe('starting a run', () => {
  it('creates one stamped run, records it, and edits the "Starting…" message queued with 👀', async () => {
    const trigger = slackMention({ text: 'fix the flaky test in ci' });
    await handle(env, trigger);

    const runs = env.emulator.runs.all();
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run.metadata).toMatchObject({
      relay_thread: trigger.threadKey,
      relay_platform: 'slack',
      relay_request: `slack:${trigger.deliveryId}`,
    });
    expect(run.title).toBe('fix the flaky test in ci');

    const record = await env.store.runs.get(run.run_id);
    expect(record).toMatchObject({
      threadKey: trigger.threadKey,
      requester: { id: 'U1', name: 'alice' },
      tracked: true,
      triggerMessage: trigger.triggerMessage,
    });
    expect(record!.applied).toEqual(
      expect.arrayContaining([
        { key: 'model', source: 'service' },
        { key: 'env', source: 'service' },
      ]),
    );
    expect((await env.store.threads.get(trigger.threadKey))?.currentRunId).toBe(run.run_id);
    expect(await env.store.inboxQueue.depth()).toBe(0);

    const queued = await env.store.outboxQueue.list({ threadKey: trigger.threadKey });
    // 👀 and "Starting…" (by request, before the create), then the run's status (by run).
    expect(queued.map((n) => n.payload.kind)).toEqual(['react', 'status', 'status']);
    expect(queued[1]!.payload).toMatchObject({
      requestId: `slack:${trigger.deliveryId}`,
      message: { type: 'run_status', run: { runId: '', state: { label: 'Starting…' } } },
    });
    expect(queued[1]!.payload.runId).toBeUndefined();
    expect(queued[2]!.payload.runId).toBe(run.run_id);

    await flushOutbox(env);
    expect(env.slack.reactions).toEqual([{ target: trigger.triggerMessage, reaction: 'seen' }]);
    // One message. The run's status was queued before "Starting…" went out, so "Starting…"
    // is moot: the card is posted once, showing the run.
    expect(env.slack.posts).toHaveLength(1);
    const ref = env.slack.posts[0]!.ref;
    expect(env.slack.historyOf(ref).map((m) => m.type === 'run_status' && m.run.runId)).toEqual([
      run.run_id,
    ]);
    expect((await env.store.runs.get(run.run_id))?.statusMessage).toEqual(ref);
  });

  it('applies inline options over channel defaults over the service, and reports the sources', async () => {
    await env.store.settings.set('slack:T1:C1', 'model', 'model-from-channel', 'U9', Date.now());
    await env.store.settings.set('slack:T1:C1', 'env', 'env-from-channel', 'U9', Date.now());
    await handle(
      env,
      slackMention({ text: 'env=env-inline mode=plan title="Custom title" do the thing' }),
    );

    const run = env.emulator.runs.all()[0]!;
    expect(run.agent_config).toMatchObject({
      model_id: 'model-from-channel',
      environment_id: 'env-inline',
    });
    expect(run.title).toBe('Custom title');
    const record = await env.store.runs.get(run.run_id);
    expect(record!.applied).toEqual(
      expect.arrayContaining([
        { key: 'model', value: 'model-from-channel', source: 'default' },
        { key: 'env', value: 'env-inline', source: 'inline' },
        { key: 'skill', source: 'service' },
        { key: 'mode', value: 'plan', source: 'inline' },
      ]),
    );
    await flushOutbox(env);
    const status = env.slack.posts[0]!.message;
    // The status message shows what applied, less the factory nobody set.
    expect(status.type === 'run_status' && status.run.applied).toEqual(
      record!.applied.filter((a) => !(a.key === 'factory' && a.source === 'service')),
    );
  });

  it.each(RUN_MODES)(
    'sends mode=%s, inline or as the channel default, in the create',
    async (mode) => {
      const created: CreateRunRequest[] = [];
      const engine = env.makeEngine(env.store, {
        agent: {
          ...env.agent,
          createRun: (request, options) => {
            created.push(request);
            return env.agent.createRun(request, options);
          },
        },
      });
      await handle({ engine }, slackMention({ text: `mode=${mode} do the thing` }));
      await env.store.settings.set('slack:T1:C1', 'mode', mode, 'U9', Date.now());
      await handle({ engine }, slackMention({ text: 'do the other thing' }));
      expect(created.map((r) => r.mode)).toEqual([mode, mode]);
      expect(env.emulator.runs.all()).toHaveLength(2);
    },
  );

  it('gives a GitHub run the issue and the comment as context', async () => {
    const trigger = githubComment();
    await handle(env, trigger);
    const run = env.emulator.runs.all()[0]!;
    expect(run.prompt.startsWith('fix the typo in the README')).toBe(true);
    expect(run.prompt).toContain('Issue octo/widgets#7: Typo in README');
    expect(run.prompt).toContain('https://github.com/octo/widgets/issues/7');
    expect(run.prompt).toContain('The README says "teh".');
    expect(run.metadata).toMatchObject({
      relay_platform: 'github',
      relay_thread: 'github:octo/widgets#7',
    });
    await flushOutbox(env);
    expect(env.github.posts[0]!.message.type).toBe('run_status');
  });

  it('fetches the Slack thread history for a mention inside a thread, and starts without it on failure', async () => {
    const root = '1700000999.000100';
    const threadKey = `slack:T1:C1:${root}`;
    env.slack.threadMessages = [{ author: 'bob', text: 'the deploy broke at 3pm' }];
    await handle(env, slackReply(threadKey, { text: 'find out why' }));
    expect(env.slack.fetchCalls).toHaveLength(1);
    expect(env.emulator.runs.all()[0]!.prompt).toContain('bob: the deploy broke at 3pm');

    const other = 'slack:T1:C1:1700000998.000100';
    env.slack.threadMessages = new Error('slack down');
    await handle(env, slackReply(other, { text: 'and this one' }));
    expect(env.emulator.runs.all()).toHaveLength(2);
    expect(
      env.logger.lines.some((l) => l.level === 'warn' && /thread history/.test(l.msg ?? '')),
    ).toBe(true);
  });

  it('does not fetch history when the ingress sent it', async () => {
    const threadKey = 'slack:T1:C1:1700000997.000100';
    await handle(
      env,
      slackReply(threadKey, {
        text: 'with context',
        context: { threadMessages: [{ author: 'x', text: 'given' }] },
      }),
    );
    expect(env.slack.fetchCalls).toHaveLength(0);
    expect(
      env.emulator.runs.all().find((r) => r.prompt.startsWith('with context'))!.prompt,
    ).toContain('x: given');
  });

  it('anchors a slash-command run in the thread its status message creates', async () => {
    const trigger = slackMention({
      kind: 'slash_command',
      threadKey: 'slack:T1:C1:',
      triggerMessage: undefined,
      anchorsNewThread: true,
      replyPrivatelyTo: 'U1',
      text: 'write the changelog',
    });
    await handle(env, trigger);
    await flushOutbox(env);
    const post = env.slack.posts[0]!;
    expect(post.to).toEqual({ threadKey: 'slack:T1:C1:' });
    const runId = env.emulator.runs.all()[0]!.run_id;
    const newKey = post.ref.threadKey;
    expect(newKey).not.toBe('slack:T1:C1:');
    expect((await env.store.threads.get(newKey))?.currentRunId).toBe(runId);
    expect(await env.engine.sink.threadHasRun(newKey)).toBe(true);
    expect((await env.store.runs.get(runId))?.threadKey).toBe(newKey);

    // A second slash command in the same channel is a new run, not a follow-up.
    await handle(env, { ...trigger, deliveryId: 'Ev-second', text: 'another task' });
    expect(env.emulator.runs.all()).toHaveLength(2);
    expect(env.emulator.followups).toHaveLength(0);

    // A reply in the new thread follows up on the first run.
    await handle(env, slackReply(newKey, { text: 'also update the README' }));
    expect(env.emulator.followups.map((f) => f.runId)).toEqual([runId]);
  });

  it('drops a duplicate delivery: one run', async () => {
    const trigger = slackMention();
    expect(await env.engine.sink.accept(trigger)).toBe('accepted');
    expect(await env.engine.sink.accept({ ...trigger })).toBe('duplicate');
    await env.engine.inbox.runOnce();
    await env.engine.inbox.runOnce();
    expect(env.emulator.runs.count()).toBe(1);
    expect(env.metrics.counters.get('duplicates_dropped')).toBe(1);
  });
});
