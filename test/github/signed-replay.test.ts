/**
 * A signed GitHub webhook sent again under a new `X-GitHub-Delivery` (a header the signature
 * does not cover) is a duplicate: the inbox dedupes on the signed body, so one comment starts
 * one run however often it is replayed.
 */
import { describe, expect, it } from 'vitest';
import { fixtureText, type Payload } from './fixtures.js';
import { postGitHub } from '../helpers/github.js';
import { waitUntil } from '../helpers/wait-until.js';
import { relayPerTest } from '../helpers/relay.js';

const start = relayPerTest();

describe('GitHub: a replayed signed body', () => {
  it('under new delivery ids starts one run and stores one trigger', async () => {
    const r = await start();
    const payload = JSON.parse(fixtureText('issue-comment-on-pr')) as Payload;
    payload.comment.body = '@agent-relay fix the flaky test';
    const body = JSON.stringify(payload);
    const answers: unknown[] = [];
    for (const deliveryId of ['replay-1', 'replay-2', 'replay-3']) {
      const res = await postGitHub(r.githubWebhooks, body, { event: 'issue_comment', deliveryId });
      answers.push(await res.json());
    }
    expect(answers.slice(1)).toEqual([
      expect.objectContaining({ result: 'duplicate' }),
      expect.objectContaining({ result: 'duplicate' }),
    ]);
    await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.emulator.runs.count()).toBe(1);
    expect(r.rows().inbox).toBe(1);
  });
});
