import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryError } from '../../../src/core/ports/index.js';
import type { GitHubNotifier } from '../../../src/github/notify/notifier.js';
import { startFakeGitHub, type FakeGitHub } from '../../../src/fakes/github-rest-api.js';
import { SAMPLE_MODELS, sampleRun } from '../models.js';
import { testGitHubNotifier } from '../test-notifier.js';
import { createRecordingLogger, type RecordingLogger } from '../../helpers/test-logger.js';
import { rejectionOf } from '../../helpers/rejection.js';

const ISSUE = 'github:octo-org/widgets#42';
const REVIEW = 'github:octo-org/widgets#7/r2001';

let api: FakeGitHub;
let logger: RecordingLogger;
let notifier: GitHubNotifier;

beforeEach(async () => {
  api = await startFakeGitHub({ token: 'ghp_test_token' });
  logger = createRecordingLogger();
  notifier = testGitHubNotifier(api.url, { kind: 'token', token: 'ghp_test_token' }, { logger });
});
afterEach(async () => {
  await api.close();
});

const failure = (promise: Promise<unknown>) => rejectionOf(promise, DeliveryError);

const status = (state: string) => ({ type: 'run_status', run: sampleRun(state) }) as const;

describe('GitHub notifier: comments', () => {
  it('posts a status comment on an issue and edits it in place', async () => {
    const { ref } = await notifier.post({ threadKey: ISSUE }, status('QUEUED'));
    expect(ref.threadKey).toBe(ISSUE);
    expect(ref.id).toMatch(/^issue:\d+$/);
    expect(ref.url).toMatch(
      /^https:\/\/github\.com\/octo-org\/widgets\/issues\/42#issuecomment-\d+$/,
    );
    await notifier.update(ref, status('INPROGRESS'));
    await notifier.update(ref, status('SUCCEEDED'));
    const [comment] = api.commentsOn('octo-org', 'widgets', 42);
    expect(api.comments.size).toBe(1);
    expect(comment?.kind).toBe('issue');
    expect(comment?.edits.map((b) => b.split('\n')[0]?.split(' — ')[0])).toEqual([
      '🏃 **agent-relay** is working on: **Fix the \\*flaky\\* parser test &lt;script&gt;** · for @\u200balice',
      '✅ **agent-relay** finished: **Fix the \\*flaky\\* parser test &lt;script&gt;** · for @\u200balice in 4m 12s',
    ]);
    expect(api.requests.every((r) => r.authorization === 'token ghp_test_token')).toBe(true);
  });

  it('posts into a review thread as a reply to its root, and edits the reply', async () => {
    const { ref } = await notifier.post({ threadKey: REVIEW }, status('QUEUED'));
    expect(ref.id).toMatch(/^review:\d+$/);
    const reply = api.comments.get(Number(ref.id.split(':')[1]));
    expect(reply).toMatchObject({ kind: 'review', number: 7, inReplyTo: 2001 });
    await notifier.update(ref, status('INPROGRESS'));
    expect(reply?.edits).toHaveLength(1);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/octo-org/widgets/pulls/7/comments/2001/replies',
      `PATCH /repos/octo-org/widgets/pulls/comments/${reply?.id}`,
    ]);
  });

  it('splits a message over 65,536 characters into several comments', async () => {
    const huge = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'z'.repeat(40)}`).join('\n');
    const { ref } = await notifier.post(
      { threadKey: ISSUE },
      { type: 'run_status', run: sampleRun('FAILED', { statusMessage: huge }) },
    );
    const posted = api.commentsOn('octo-org', 'widgets', 42);
    expect(posted.length).toBeGreaterThan(1);
    expect(ref.id).toBe(`issue:${posted[0]?.id}`);
    for (const c of posted) expect(c.body.length).toBeLessThanOrEqual(65_536);
    // An edit stays one comment: cut with a note.
    await notifier.update(ref, {
      type: 'run_status',
      run: sampleRun('FAILED', { statusMessage: `${huge}\none more line` }),
    });
    expect(posted[0]?.edits[0]?.endsWith('<sub>(truncated)</sub>')).toBe(true);
    expect(api.commentsOn('octo-org', 'widgets', 42)).toHaveLength(posted.length);
  });

  it('does not edit a comment to what it already says', async () => {
    const { ref } = await notifier.post({ threadKey: ISSUE }, status('QUEUED'));
    await notifier.update(ref, status('QUEUED'));
    await notifier.update(ref, status('SUCCEEDED'));
    await notifier.update(ref, status('SUCCEEDED'));
    const [comment] = api.commentsOn('octo-org', 'widgets', 42);
    expect(comment?.edits).toHaveLength(1);
  });

  it('reactions map to GitHub content on comments, review comments and issues', async () => {
    await notifier.react({ threadKey: ISSUE, id: 'issue:1001' }, 'seen');
    await notifier.react({ threadKey: REVIEW, id: 'review:2001' }, 'succeeded');
    await notifier.react({ threadKey: ISSUE, id: 'issue-body:42' }, 'failed');
    await notifier.react({ threadKey: ISSUE, id: 'issue:1001' }, 'cancelled');
    await notifier.react({ threadKey: ISSUE, id: 'issue:1001' }, 'accepted');
    expect(api.reactions).toEqual([
      { target: 'issue_comment', id: 1001, content: 'eyes' },
      { target: 'review_comment', id: 2001, content: 'rocket' },
      { target: 'issue', id: 42, content: 'confused' },
      { target: 'issue_comment', id: 1001, content: '-1' },
      { target: 'issue_comment', id: 1001, content: '+1' },
    ]);
  });

  it('a new state reaction removes the superseded ones (its own stays)', async () => {
    const comment = { threadKey: ISSUE, id: 'issue:1001' };
    const where = { owner: 'octo-org', repo: 'widgets' };
    await notifier.react(comment, 'seen');
    await notifier.react(comment, 'blocked', { replaces: ['seen', 'accepted'] });
    expect(api.reactionsNow('issue_comment', 1001, where)).toEqual(['eyes']);
    await notifier.react(comment, 'succeeded', { replaces: ['seen', 'accepted', 'blocked'] });
    expect(api.reactionsNow('issue_comment', 1001, where)).toEqual(['rocket']);
    await notifier.react({ threadKey: ISSUE, id: 'issue-body:42' }, 'seen');
    await notifier.react({ threadKey: ISSUE, id: 'issue-body:42' }, 'failed', {
      replaces: ['seen'],
    });
    expect(api.reactionsNow('issue', 42, where)).toEqual(['confused']);
  });

  it('spaces writes (GitHub’s advice against secondary limits)', async () => {
    const paced = testGitHubNotifier(
      api.url,
      { kind: 'token', token: 'ghp_test_token' },
      { logger, minWriteIntervalMs: 120 },
    );
    await Promise.all(
      [1, 2, 3].map((n) =>
        paced.post({ threadKey: `github:octo-org/widgets#${n}` }, status('QUEUED')),
      ),
    );
    const at = api.requests.map((r) => r.at);
    expect(at).toHaveLength(3);
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(100);
    expect((at[2] ?? 0) - (at[1] ?? 0)).toBeGreaterThanOrEqual(100);
  });

  it('looks up a pull request’s branches', async () => {
    api.setPullRequest('octo-org', 'widgets', 7, { head: 'fix/parser', base: 'main' });
    expect(
      await notifier.lookupPullRequest({ owner: 'octo-org', repo: 'widgets', number: 7 }),
    ).toEqual({
      headRef: 'fix/parser',
      baseRef: 'main',
    });
    expect(
      await notifier.lookupPullRequest({ owner: 'octo-org', repo: 'widgets', number: 99 }),
    ).toBeUndefined();
  });
});

describe('GitHub notifier: failures become DeliveryErrors', () => {
  it('403 secondary rate limit -> retryable with retry-after, not retried inside Octokit', async () => {
    api.failNext({
      method: 'POST',
      status: 403,
      headers: { 'retry-after': '30' },
      body: {
        message:
          'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
      },
    });
    const err = await failure(
      notifier.post({ threadKey: ISSUE }, SAMPLE_MODELS['notice refusal']!),
    );
    expect(err).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 30_000 });
    expect(api.requests).toHaveLength(1);
    expect(api.comments.size).toBe(0);
  });

  it('429 and primary exhaustion -> rate_limited with the reset time', async () => {
    const reset = Math.floor(Date.now() / 1000) + 120;
    api.failNext({
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
      body: { message: 'API rate limit exceeded for installation.' },
    });
    const err = await failure(notifier.react({ threadKey: ISSUE, id: 'issue:1' }, 'seen'));
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfterMs).toBeGreaterThan(100_000);
    expect(err.retryAfterMs).toBeLessThanOrEqual(122_000);
    api.failNext({ status: 429, body: { message: 'slow down' } });
    expect(
      await failure(notifier.react({ threadKey: ISSUE, id: 'issue:1' }, 'seen')),
    ).toMatchObject({
      code: 'rate_limited',
      retryable: true,
      retryAfterMs: 60_000,
    });
  });

  it('one 5xx is retried quickly inside Octokit; a lasting 5xx goes back to the outbox', async () => {
    api.failNext({ status: 502, times: 1 });
    await notifier.post({ threadKey: ISSUE }, status('QUEUED'));
    expect(api.comments.size).toBe(1);
    api.failNext({ status: 500, times: 5 });
    const err = await failure(notifier.post({ threadKey: ISSUE }, status('QUEUED')));
    expect(err).toMatchObject({ code: 'unavailable', retryable: true });
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(4); // 2 + 2 attempts
  });

  it('404/410 on a deleted issue or comment -> permanent not_found, with a log line', async () => {
    const err = await failure(
      notifier.update({ threadKey: ISSUE, id: 'issue:424242' }, status('INPROGRESS')),
    );
    expect(err).toMatchObject({ code: 'not_found', retryable: false });
    api.failNext({ status: 410, body: { message: 'This issue was deleted' } });
    expect(await failure(notifier.post({ threadKey: ISSUE }, status('QUEUED')))).toMatchObject({
      code: 'not_found',
      retryable: false,
    });
    const warns = logger.lines.filter((l) => l.level === 'warn' && l.obj.threadKey === ISSUE);
    expect(warns.map((l) => l.obj.code)).toEqual(['not_found', 'not_found']);
  });

  it('403 without rate-limit signs (locked issue) -> permanent forbidden; 422 -> invalid', async () => {
    api.failNext({
      status: 403,
      body: { message: 'Unable to create comment because issue is locked.' },
    });
    expect(await failure(notifier.post({ threadKey: ISSUE }, status('QUEUED')))).toMatchObject({
      code: 'forbidden',
      retryable: false,
    });
    api.failNext({ status: 422, body: { message: 'Validation Failed' } });
    expect(await failure(notifier.post({ threadKey: ISSUE }, status('QUEUED')))).toMatchObject({
      code: 'invalid',
      retryable: false,
    });
  });

  it('a network failure is retryable', async () => {
    await api.close();
    const err = await failure(notifier.post({ threadKey: ISSUE }, status('QUEUED')));
    expect(err).toMatchObject({ code: 'unavailable', retryable: true });
  });

  it('refuses what it cannot address', async () => {
    expect(
      (await failure(notifier.post({ threadKey: 'slack:T1:C1:1.2' }, status('QUEUED')))).code,
    ).toBe('invalid');
    expect(
      (await failure(notifier.update({ threadKey: ISSUE, id: 'issue-body:42' }, status('QUEUED'))))
        .code,
    ).toBe('invalid');
    expect((await failure(notifier.react({ threadKey: ISSUE, id: 'C1:1.2' }, 'seen'))).code).toBe(
      'invalid',
    );
    expect(api.requests).toHaveLength(0);
  });
});

describe('GitHub notifier: one comment per notification across retries', () => {
  const huge = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'z'.repeat(40)}`).join('\n');
  const long = { type: 'run_status', run: sampleRun('FAILED', { statusMessage: huge }) } as const;

  it('marks each part with the key, hidden, within the size limit', async () => {
    await notifier.post({ threadKey: ISSUE }, long, { key: '9.1700000000000' });
    const posted = api.commentsOn('octo-org', 'widgets', 42);
    expect(posted.length).toBeGreaterThan(1);
    posted.forEach((c, i) => {
      expect(c.body.endsWith(`<!-- agent-relay:notification 9.1700000000000/${i} -->`)).toBe(true);
      expect(c.body.length).toBeLessThanOrEqual(65_536);
    });
  });

  /** A QUEUED status posted to `threadKey` under `key`, then again as a retry that may find it. */
  async function postAndRetry(threadKey: string, key: string) {
    const since = Date.now();
    const first = await notifier.post({ threadKey }, status('QUEUED'), { key });
    const again = await notifier.post({ threadKey }, status('QUEUED'), {
      key,
      mayExist: { since },
    });
    return { first, again, since };
  }

  it('answers with the earlier comment instead of posting again', async () => {
    const { first, again, since } = await postAndRetry(ISSUE, 'a');
    expect(again.ref).toEqual(first.ref);
    expect(api.comments.size).toBe(1);
    // Another notification's mark is not this one's.
    await notifier.post({ threadKey: ISSUE }, status('QUEUED'), { key: 'b', mayExist: { since } });
    expect(api.comments.size).toBe(2);
  });

  it('posts only the parts an interrupted attempt did not', async () => {
    const since = Date.now();
    await notifier.post({ threadKey: ISSUE }, long, { key: 'c' });
    const posted = api.commentsOn('octo-org', 'widgets', 42);
    const last = posted.at(-1);
    api.comments.delete(last?.id ?? -1); // that attempt died before the last part
    const again = await notifier.post({ threadKey: ISSUE }, long, {
      key: 'c',
      mayExist: { since },
    });
    const now = api.commentsOn('octo-org', 'widgets', 42);
    expect(now).toHaveLength(posted.length);
    expect(now.at(-1)?.body).toBe(last?.body);
    expect(again.ref.id).toBe(`issue:${posted[0]?.id}`);
  });

  it('finds a reply in a review thread', async () => {
    const { first, again } = await postAndRetry(REVIEW, 'd');
    expect(again.ref).toEqual(first.ref);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/octo-org/widgets/pulls/7/comments/2001/replies',
      'GET /repos/octo-org/widgets/pulls/7/comments',
    ]);
  });

  it('a failed look is a retryable failure, not a second post', async () => {
    await notifier.post({ threadKey: ISSUE }, status('QUEUED'), { key: 'e' });
    api.failNext({ method: 'GET', status: 503, times: 5 });
    const err = await failure(
      notifier.post({ threadKey: ISSUE }, status('QUEUED'), { key: 'e', mayExist: { since: 0 } }),
    );
    expect(err.retryable).toBe(true);
    expect(api.comments.size).toBe(1);
  });
});
