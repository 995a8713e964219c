/**
 * What a relay create sends, seen from the emulator: the current path, and a team-owned run
 * (teammates can open its session), where the service would otherwise make it personal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handle, slackMention, startTestEnv, type TestEnv } from '../fixtures.js';

let env: TestEnv;
beforeEach(async () => {
  env = await startTestEnv();
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
});
