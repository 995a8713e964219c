/**
 * What a relay create sends, seen from the emulator: the current path, and a team-owned run
 * (teammates can open its session), where the service would otherwise make it personal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handle, slackMention, startTestEnv, type TestEnv } from '../fixtures.js';

let env: TestEnv;
beforeEach(async () => {
  env = await startTestEnv({ options: { inboxRetryDelaysMs: [50, 50] } });
});
afterEach(() => env.close());

describe('a relay create', () => {
  it('goes to POST /agent/runs and makes a team-owned run', async () => {
    await handle(env, slackMention({ text: 'fix the flaky login test' }));
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(1);
    expect(env.emulator.requests.get('POST /agent/run')).toBe(0);
    const [run] = env.emulator.runs.all();
    expect(run).toMatchObject({ scope: { type: 'Team' } });
  });

  it('answered 429 but queued anyway: found by its stamp, never created twice', async () => {
    // The client retries as in production (two retries).
    await env.close();
    env = await startTestEnv({ agentMaxRetries: 2, options: { inboxRetryDelaysMs: [50, 50] } });
    env.emulator.faults.failNext(1, 429, {
      route: 'POST /agent/runs',
      processed: true,
      retryAfterSeconds: 0,
    });
    await handle(env, slackMention({ text: 'a full service took it' }));
    expect(env.emulator.runs.count()).toBe(1);
    const runId = env.emulator.runs.all()[0]!.run_id;
    expect(env.emulator.requests.get('POST /agent/runs')).toBe(1);
    expect(await env.store.runs.get(runId)).toMatchObject({ runId, tracked: true });
  });
});
