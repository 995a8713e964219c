/**
 * The narrowest crash moment: Slack or GitHub has accepted a
 * post, but the process dies before it hears the answer, so the relay never recorded it.
 * Neither platform's create call has an idempotency key; the relay marks each post with its
 * notification's key (Slack message metadata, a hidden marker in the GitHub comment), and the
 * attempt after the restart looks for that mark before posting. The answers are held at a
 * gate so that the kill falls exactly there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait-until.js';
import { crashTriggers, deliverAll } from './crash-triggers.js';
import { startCrashWorld } from './crash-world.js';
import type { CrashWorld } from './crash-world.js';

let world: CrashWorld | undefined;
const dir = mkdtempSync(join(tmpdir(), 'relay-crash-mid-'));
let n = 0;
afterEach(async () => {
  await world?.close();
  world = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function trigger(platform: 'slack' | 'github') {
  const found = crashTriggers().find((t) => t.platform === platform);
  if (found === undefined) throw new Error(`no ${platform} trigger`);
  return found;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a kill between the platform’s answer to a post and the relay recording it', () => {
  for (const platform of ['slack', 'github'] as const) {
    it(`${platform}: the status message is posted once, then edited to the end`, async () => {
      const w = (world = await startCrashWorld(join(dir, `relay-${++n}.db`)));
      await w.start();
      w.freezePlatformAnswers();
      const t = trigger(platform);
      await deliverAll([t], w.url);
      await waitUntil(() => w.statusPosts().length >= 1, { timeoutMs: 8_000 });
      await w.killAnywhere(); // the post reached the platform; its answer never came back
      await w.start();
      await waitUntil(() => w.outcomes().length === 1, { timeoutMs: 15_000 });
      await sleep(500); // a repeat would show now
      expect(w.countPerToken(w.statusPosts())).toEqual({ [t.token]: 1 });
      expect(w.countPerToken(w.outcomes())).toEqual({ [t.token]: 1 });
      // The message found after the restart became the run's status message: it was edited.
      expect(w.finalStatuses().join('\n')).toMatch(/Succeeded/);
    }, 30_000);
  }

  it('slack: the outcome reply is posted once', async () => {
    const w = (world = await startCrashWorld(join(dir, `relay-${++n}.db`)));
    await w.start();
    const t = trigger('slack');
    await deliverAll([t], w.url);
    await waitUntil(() => w.statusPosts().length >= 1, { timeoutMs: 8_000 });
    await sleep(300); // the status message is recorded
    w.freezePlatformAnswers();
    await waitUntil(() => w.outcomes().length >= 1, { timeoutMs: 12_000, intervalMs: 10 });
    await w.killAnywhere();
    await w.start();
    expect(w.db().outboxPending).toBeGreaterThan(0); // the reply was never recorded as sent
    await waitUntil(() => w.db().outboxPending === 0, { timeoutMs: 10_000 });
    await sleep(500); // a repeat would show now
    expect(w.countPerToken(w.outcomes())).toEqual({ [t.token]: 1 });
    expect(w.countPerToken(w.statusPosts())).toEqual({ [t.token]: 1 });
  }, 30_000);
});
