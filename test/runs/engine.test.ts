/**
 * The whole core, running: the engine's inbox worker, tracker and outbox loops over the real
 * store, the real client against the emulator, and recording notifiers.
 */
import { describe, expect, it } from 'vitest';
import type { MessageModel } from '../../src/core/message/message-model.js';
import type { Store } from '../../src/core/ports/index.js';
import { waitUntil } from '../helpers/wait-until.js';
import { slackMention, slackReply, testEnvPerTest } from './fixtures.js';
import type { RecordingNotifier } from './recording-notifier.js';

const env = testEnvPerTest();

function postsOf(
  n: RecordingNotifier,
  type: MessageModel['type'],
  threadKey?: string,
): MessageModel[] {
  return n.posts
    .filter((p) => p.message.type === type && (!threadKey || p.to.threadKey === threadKey))
    .map((p) => p.message);
}

function outcomeStates(n: RecordingNotifier, threadKey: string): string[] {
  return postsOf(n, 'run_outcome', threadKey).map((m) =>
    m.type === 'run_outcome' ? m.run.state.name : '',
  );
}

async function statusStates(store: Store, n: RecordingNotifier, runId: string): Promise<string[]> {
  const ref = (await store.runs.get(runId))?.statusMessage;
  if (!ref) return [];
  return n.historyOf(ref).map((m) => (m.type === 'run_status' ? m.run.state.name : m.type));
}

describe('engine', () => {
  it('start -> states -> follow-up -> cancel -> list -> factory -> config', async () => {
    const { engine, slack, store, emulator } = env;
    engine.start();

    // Start: 👀, one status message that moves through the states.
    const start = slackMention({ text: 'refactor the parser [slow]' });
    expect(await engine.sink.accept(start)).toBe('accepted');
    const runId = await waitUntil(
      async () => (await store.threads.get(start.threadKey))?.currentRunId,
    );
    await waitUntil(async () => (await statusStates(store, slack, runId)).includes('INPROGRESS'));
    expect(await engine.sink.threadHasRun(start.threadKey)).toBe(true);

    // Follow-up: reaches the service, confirmed with a reaction.
    const followup = slackReply(start.threadKey, { text: 'keep the public API unchanged [slow]' });
    await engine.sink.accept(followup);
    await waitUntil(() => emulator.followups.some((f) => f.runId === runId));
    await waitUntil(() =>
      slack.reactions.some(
        (r) => r.reaction === 'accepted' && r.target.id === followup.triggerMessage!.id,
      ),
    );

    // Cancel: the status message ends as CANCELLED, one outcome reply, a reaction.
    await waitUntil(() => emulator.runs.get(runId)?.state === 'INPROGRESS');
    await engine.sink.accept(slackReply(start.threadKey, { text: 'cancel' }));
    await waitUntil(() => outcomeStates(slack, start.threadKey).length === 1);
    expect(outcomeStates(slack, start.threadKey)).toEqual(['CANCELLED']);
    await waitUntil(async () => (await statusStates(store, slack, runId)).at(-1) === 'CANCELLED');
    await waitUntil(() => slack.reactions.some((r) => r.reaction === 'cancelled'));

    // List: the cancelled run is there.
    const list = slackMention({ text: 'list state=CANCELLED' });
    await engine.sink.accept(list);
    const listed = await waitUntil(() => postsOf(slack, 'run_list', list.threadKey)[0]);
    expect(listed.type === 'run_list' && listed.runs.map((r) => r.runId)).toEqual([runId]);

    // Factory: a dispatched run is tracked to its end like any other.
    const factory = slackMention({ text: 'factory docs write the release notes' });
    await engine.sink.accept(factory);
    await waitUntil(() => outcomeStates(slack, factory.threadKey).length === 1, {
      timeoutMs: 5_000,
    });
    const factoryRun = (await store.threads.get(factory.threadKey))!.currentRunId!;
    expect(emulator.runs.get(factoryRun)!.agent_config).toMatchObject({ name: 'Docs Factory' });

    // Config: a reply with the channel's defaults.
    const config = slackMention({
      text: 'config model=gpt-x',
      actor: { id: 'U1', name: 'alice', admin: true },
    });
    await engine.sink.accept(config);
    const reply = await waitUntil(() => postsOf(slack, 'config', config.threadKey)[0]);
    expect(reply).toMatchObject({
      type: 'config',
      changed: ['model'],
      settings: [{ key: 'model', value: 'gpt-x' }],
    });

    // Every run: its status message posted once, its outcome told once.
    await engine.tracker.runCycle();
    expect(postsOf(slack, 'run_status', start.threadKey)).toHaveLength(1);
    expect(postsOf(slack, 'run_status', factory.threadKey)).toHaveLength(1);
    expect(outcomeStates(slack, start.threadKey)).toEqual(['CANCELLED']);
    expect(outcomeStates(slack, factory.threadKey)).toEqual(['SUCCEEDED']);
    expect(slack.updates.length).toBeGreaterThanOrEqual(4);
    await engine.stop();
  });

  it('kill and restart: the tracker resumes and the final notification is delivered exactly once', async () => {
    const { slack, emulator } = env;
    const first = env.engine;
    first.start();
    const trigger = slackMention({ text: 'outlive the restart [slow]' });
    await first.sink.accept(trigger);
    const runId = await waitUntil(
      async () => (await env.store.threads.get(trigger.threadKey))?.currentRunId,
    );
    await waitUntil(async () => (await env.store.runs.get(runId))?.statusMessage);

    // Crash: the database goes away under the running engine; then the process is gone.
    await env.store.close();
    await first.stop();

    // While down, the run ends.
    emulator.setState(runId, 'SUCCEEDED');

    const store = await env.reopenStore();
    expect(await store.runs.get(runId)).toMatchObject({ tracked: true });
    const second = env.makeEngine(store);
    second.start();
    await waitUntil(() => outcomeStates(slack, trigger.threadKey).length === 1, {
      timeoutMs: 5_000,
    });
    for (let i = 0; i < 3; i += 1) await second.tracker.runCycle();
    await second.stop();

    // A third start finds nothing left to tell.
    const third = env.makeEngine(store);
    third.start();
    await third.tracker.runCycle();
    await third.stop();

    expect(outcomeStates(slack, trigger.threadKey)).toEqual(['SUCCEEDED']);
    expect(slack.reactions.filter((r) => r.reaction === 'succeeded')).toHaveLength(1);
    expect(postsOf(slack, 'run_status', trigger.threadKey)).toHaveLength(1);
    expect(await store.runs.get(runId)).toMatchObject({
      tracked: false,
      notifiedState: 'SUCCEEDED',
    });
    expect(await store.outboxQueue.depth()).toBe(0);
  });
});
