/**
 * Slash-command prompts in one channel are handled side by side: each starts a thread of its
 * own, so a slow create call for one (held here at a gate in front of the service) does not
 * hold back the next one's "Starting…". A channel command typed after them (`/agent status`)
 * still waits for them, so it finds the runs they started.
 */
import { describe, expect, it } from 'vitest';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import { startGatedEngine } from '../gated-service.js';
import { worldPerTest } from '../../helpers/world-per-test.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { slackSlash, startTestEnv } from '../fixtures.js';

const CHANNEL = 'slack:T1:C1:';

// Registered in this order so that after each test the env closes before its gate.
const startGated = worldPerTest(startGatedEngine);
const startEnv = worldPerTest(startTestEnv);

function isStarting(m: MessageModel): boolean {
  return m.type === 'run_status' && m.run.state.label === 'Starting…';
}

describe('slash-command prompts in one channel', () => {
  it('both show "Starting…" while the first create is held; `status` waits for them', async () => {
    const env = await startEnv();
    const { gate, engine } = await startGated(env);
    const slack = env.slack;
    engine.start();

    await engine.sink.accept(slackSlash('first task', 'U1'));
    await waitUntil(() => gate.held() === 1, { message: "the first prompt's create is held" });
    await engine.sink.accept(slackSlash('second task', 'U2'));

    // The first create is still unanswered, and the second prompt got going all the same.
    await waitUntil(() => gate.held() === 2, { message: "the second prompt's create is held" });
    await waitUntil(() => slack.posts.filter((p) => isStarting(p.message)).length === 2, {
      message: 'two "Starting…" messages, each its own thread',
    });
    const starting = slack.posts.filter((p) => isStarting(p.message));
    expect(starting.map((p) => p.to.threadKey)).toEqual([CHANNEL, CHANNEL]);
    expect(new Set(starting.map((p) => p.ref.threadKey)).size).toBe(2);
    expect(env.emulator.runs.count()).toBe(0);

    // A channel command typed now waits for both prompts (one per pass of the worker, which
    // polls every 20 ms: a few passes go by before the gate opens).
    const status = slackSlash('status', 'U1');
    await engine.sink.accept(status);
    await waitUntil(async () => (await env.store.inboxQueue.depth()) === 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { triggers } = await env.store.operator!.threadItems([CHANNEL], 10);
    expect(triggers.find((t) => t.deliveryId === status.deliveryId)?.status).toBe('pending');
    expect(gate.held()).toBe(2);

    gate.thaw();
    await waitUntil(() => env.emulator.runs.count() === 2, { message: 'both runs created' });
    const answer = await waitUntil(
      () => slack.posts.find((p) => p.to.privateTo === 'U1' && p.message.type !== 'run_status'),
      { message: 'the status answer' },
    );
    // It found the run the asker's prompt started.
    const mine = env.emulator.runs.all().find((r) => r.prompt.includes('first task'));
    expect(mine).toBeDefined();
    expect(answer.message).toMatchObject({ type: 'run_brief', run: { runId: mine!.run_id } });
    await engine.stop();
  });
});
