/**
 * `list` in a busy team: hundreds of newer runs from elsewhere in the team do not push this
 * place's runs (or the asker's) out of the answer, because the service filters by our stamp.
 * Where it cannot (403 feature_not_available), the relay scans the newest runs as before.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import { flushOutbox, handle, slackMention, startTestEnv, type TestEnv } from '../fixtures.js';

let env: TestEnv;
beforeEach(async () => {
  env = await startTestEnv();
  await handle(env, slackMention({ text: 'our quiet run' }));
  // The rest of the team is busy: more runs than one scan reads, all newer than ours.
  await new Promise((resolve) => setTimeout(resolve, 5));
  env.emulator.seedRuns(250, {
    manual: true,
    state: 'SUCCEEDED',
    prompt: (i) => `elsewhere ${i}`,
    spreadMs: 0,
  });
  await flushOutbox(env);
  env.slack.posts.length = 0;
});
afterEach(() => env.close());

async function listedTitles(text: string): Promise<string[]> {
  await handle(env, slackMention({ text }));
  await flushOutbox(env);
  const answer = env.slack.posts.find((p) => p.message.type === 'run_list');
  return (answer!.message as Extract<MessageModel, { type: 'run_list' }>).runs.map((r) => r.title);
}

describe('list in a busy team', () => {
  it('`list` in the channel still shows its run', async () => {
    expect(await listedTitles('list')).toEqual(['our quiet run']);
  });

  it('`list mine` still shows the asker’s run', async () => {
    expect(await listedTitles('list mine')).toEqual(['our quiet run']);
  });

  it('without metadata filtering the list still answers, from the newest runs only', async () => {
    env.emulator.faults.metadataFilterUnavailable(true);
    // The scan reads the newest runs: ours is beyond them (what the filter avoids).
    expect(await listedTitles('list')).toEqual([]);
    expect(env.emulator.requests.get('GET /agent/runs')).toBeGreaterThanOrEqual(2);
  });
});
