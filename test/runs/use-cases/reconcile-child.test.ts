/**
 * A retried trigger whose run has meanwhile spawned a child: the child inherits the
 * `relay_request` stamp and is the newest match, but reconciliation records the parent (the
 * run without a parent), and no second run is created.
 */
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../../helpers/wait-until.js';
import { handle, loseCreateAnswer, slackMention, startTestEnv } from '../fixtures.js';
import { worldPerTest } from '../../helpers/world-per-test.js';

const start = worldPerTest(startTestEnv);

describe('reconciliation and orchestration children', () => {
  it('records the run the relay created, not its newer child', async () => {
    const e = await start({ options: { inboxRetryDelaysMs: [50, 50] } });
    loseCreateAnswer(e.emulator);
    await handle(e, slackMention({ text: 'orchestrate the migration [slow]' }));
    expect(e.emulator.runs.count()).toBe(1);
    const parentId = e.emulator.runs.all()[0]!.run_id;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const child = e.emulator.createRunDirect({ prompt: 'child task', parent_run_id: parentId });
    expect(child.metadata?.relay_request).toBe(
      e.emulator.runs.get(parentId)!.metadata?.relay_request,
    );

    await waitUntil(async () => (await e.engine.inbox.runOnce()) > 0, { timeoutMs: 3_000 });
    expect(e.emulator.runs.count()).toBe(2);
    expect(await e.store.runs.get(parentId)).toMatchObject({ runId: parentId, tracked: true });
    expect(await e.store.runs.get(child.run_id)).toBeUndefined();
  });
});
