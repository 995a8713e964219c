/**
 * A create whose answer was lost, retried after the run had already ended: reconciliation
 * finds the run and the requester is still told its outcome, exactly once.
 */
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../../helpers/wait-until.js';
import { flushOutbox, handle, loseCreateAnswer, slackMention, startTestEnv } from '../fixtures.js';
import { worldPerTest } from '../../helpers/world-per-test.js';

const start = worldPerTest(startTestEnv);

describe('a run found by reconciliation after it ended', () => {
  it('gets one status message, one outcome reply and its reactions', async () => {
    // The retry waits longer than the emulator's run takes to end.
    const e = await start({ options: { inboxRetryDelaysMs: [1_000, 1_000] } });
    loseCreateAnswer(e.emulator);
    await handle(e, slackMention({ text: 'ends before the retry' }));
    expect(e.emulator.runs.count()).toBe(1);
    expect(await e.store.runs.listTracked(), JSON.stringify(e.logger.lines)).toHaveLength(0);
    await waitUntil(() => e.emulator.runs.all()[0]?.state === 'SUCCEEDED', { timeoutMs: 5_000 });

    await waitUntil(async () => (await e.engine.inbox.runOnce()) > 0, { timeoutMs: 3_000 });
    expect(e.emulator.runs.count()).toBe(1);
    const runId = e.emulator.runs.all()[0]?.run_id ?? '';
    const record = await e.store.runs.get(runId);
    expect(record).toMatchObject({ state: 'SUCCEEDED', notifiedState: 'SUCCEEDED' });
    expect(record?.serviceUpdatedAt).toBeDefined();
    await flushOutbox(e);
    // The tracker looks again later: nothing more to tell.
    for (let i = 0; i < 3; i += 1) await e.engine.tracker.runCycle();
    await flushOutbox(e);

    const outcomes = e.slack.posts.filter((p) => p.message.type === 'run_outcome');
    expect(outcomes).toHaveLength(1);
    expect(e.slack.posts.filter((p) => p.message.type === 'run_status')).toHaveLength(1);
    expect(e.slack.reactions.map((r) => r.reaction).sort()).toEqual(['seen', 'succeeded']);
  });
});
