/**
 * A retried trigger whose run has meanwhile spawned a child: the child inherits the
 * `relay_request` stamp and is the newest match, but reconciliation records the parent (the
 * run without a parent), and no second run is created.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../helpers/wait-until.js';
import { handle, slackMention, startTestEnv, type TestEnv } from '../fixtures.js';

let env: TestEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('reconciliation and orchestration children', () => {
  it('records the run the relay created, not its newer child', async () => {
    env = await startTestEnv({ options: { inboxRetryDelaysMs: [50, 50] } });
    const e = env;
    // The create's answer is lost, and so is the client's own search: the inbox retries.
    e.emulator.faults.dropNext(1, { afterProcessing: true, route: 'POST /agent/runs' });
    e.emulator.faults.failNext(1, 503, { route: 'GET /agent/runs', retryAfterSeconds: 0 });
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
