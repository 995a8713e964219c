/**
 * Slack and GitHub refuse deliveries for a while: 429 with
 * Retry-After, 5xx, and GitHub's secondary-rate-limit 403. Every notification is delivered
 * later, in order per thread; each run has one status message (posted once, then edited) and
 * its outcome arrives once.
 */
import { describe, expect, it } from 'vitest';
import type { FakeComment } from '../../src/fakes/github-rest-api.js';
import { waitUntil } from '../helpers/wait-until.js';
import { appMentionEvent, eventCallback } from '../helpers/slack.js';
import type { RecordedCall } from '../../src/fakes/slack-web-api.js';
import { validGitHubBody } from './hostile-github.js';
import { relayPerTest } from '../helpers/relay.js';

const startRelay = relayPerTest();

const THREADS = ['1700003001.000100', '1700003002.000100', '1700003003.000100'];
const isOutcome = (text: string) => /^<@UALICE01> /.test(text);

describe('Slack answers 429 and 5xx for a while', () => {
  it('every message is delivered later, in order per thread, the status message once', async () => {
    const r = await startRelay();
    r.slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 }, 2);
    r.slack.failNext('chat.postMessage', { status: 503 }, 1);
    r.slack.failNext('chat.postMessage', { error: 'ratelimited' }, 1);
    r.slack.failNext('chat.update', { status: 500 }, 2);
    r.slack.failNext('reactions.add', { status: 429, retryAfter: 1 }, 1);
    for (const ts of THREADS) {
      const body = eventCallback(appMentionEvent({ ts, text: `<@UBOT0001> fix ${ts}` }));
      expect((await r.postSlack(body)).status).toBe(200);
    }
    const okPosts = (ts: string): RecordedCall[] =>
      r.slack.okCallsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts);
    await waitUntil(
      () => THREADS.every((ts) => okPosts(ts).some((c) => isOutcome(String(c.params.text)))),
      {
        timeoutMs: 15_000,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));

    // The failures really happened.
    const failed = r.slack.calls.filter((c) => c.status !== 200 || c.error !== undefined);
    expect(failed.length).toBeGreaterThanOrEqual(7);
    for (const ts of THREADS) {
      const posts = okPosts(ts);
      // Exactly two messages in the thread: the status message, then the outcome (in order).
      expect(posts.map((c) => (isOutcome(String(c.params.text)) ? 'outcome' : 'status'))).toEqual([
        'status',
        'outcome',
      ]);
      const status = r.slack.messages.find(
        (m) => m.thread_ts === ts && !isOutcome(m.text) && m.bot_id,
      );
      expect(status).toBeDefined();
      // It shows the final state: the states that piled up during the outage were sent as
      // their newest only (a moot edit is not sent to a platform that is rate-limiting us).
      expect(status?.history.at(-1)?.text).toMatch(/Succeeded/);
    }
  }, 20_000);
});

describe('GitHub answers 429, 5xx and secondary rate limits for a while', () => {
  it('every comment is delivered later, in order per issue, the status comment once', async () => {
    const r = await startRelay();
    r.github.failNext({
      method: 'POST',
      path: /\/issues\/\d+\/comments$/,
      status: 403,
      times: 2,
      headers: { 'retry-after': '1', 'x-ratelimit-remaining': '4000' },
      body: {
        message:
          'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      },
    });
    r.github.failNext({
      method: 'POST',
      path: /\/comments$/,
      status: 429,
      times: 1,
      headers: { 'retry-after': '1' },
    });
    r.github.failNext({ method: 'PATCH', status: 502, times: 2 });
    r.github.failNext({ method: 'POST', path: /\/reactions$/, status: 500, times: 2 });
    for (const number of [42, 43]) {
      const res = await r.postGitHub(validGitHubBody('@agent-relay fix it', number), {
        event: 'issue_comment',
        deliveryId: `delivery-outage-${number}`,
      });
      expect(res.status).toBe(202);
    }
    const thread = (n: number): FakeComment[] => r.github.commentsOn('octo-org', 'widgets', n);
    await waitUntil(
      () => [42, 43].every((n) => thread(n).some((c) => c.body.startsWith('@alice '))),
      {
        timeoutMs: 15_000,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const refused = r.github.requests.length - (r.github.comments.size + r.github.reactions.length);
    expect(refused).toBeGreaterThan(0);
    for (const n of [42, 43]) {
      const comments = thread(n);
      expect(comments.map((c) => (c.body.startsWith('@alice ') ? 'outcome' : 'status'))).toEqual([
        'status',
        'outcome',
      ]);
      // The final state (states that piled up during the outage are sent as their newest).
      const status = comments[0];
      expect(status?.body).toMatch(/Succeeded/);
    }
  }, 20_000);
});
