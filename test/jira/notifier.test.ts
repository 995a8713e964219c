/**
 * The Jira notifier against the fake Jira site: comments posted as ADF and edited in place
 * (an edit to the same words sends nothing), a retried post that finds the comment it already
 * made, the start transition found by name or target status and never into a done status, and
 * Jira's refusals as the outbox's DeliveryError codes.
 */
import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/core/ports/index.js';
import { FAKE_JIRA_EMAIL, FAKE_JIRA_TOKEN } from '../../src/fakes/jira-rest-api.js';
import {
  createJiraClient,
  createJiraNotifier,
  pickTransition,
  plainText,
  type AdfDoc,
} from '../../src/jira/index.js';
import type { Notifier } from '../../src/core/ports/index.js';
import { sampleRun } from '../github/models.js';
import { createRecordingLogger } from '../helpers/test-logger.js';
import { fakeJiraPerTest } from '../helpers/jira.js';

const jira = fakeJiraPerTest();

function notifier(startTransition?: string): Notifier {
  return createJiraNotifier({
    client: createJiraClient({
      baseUrl: jira.url,
      email: FAKE_JIRA_EMAIL,
      apiToken: FAKE_JIRA_TOKEN,
    }),
    baseUrl: jira.url,
    render: { botHandle: 'agent-relay' },
    logger: createRecordingLogger(),
    ...(startTransition === undefined ? {} : { startTransition }),
  });
}

const status = (state: string) => ({ type: 'run_status' as const, run: sampleRun(state) });
const words = (body: unknown) => plainText(body as AdfDoc);

describe('the Jira notifier', () => {
  it('posts an ADF comment and edits it in place; the same words are not sent again', async () => {
    const issue = jira.model.addIssue('PROJ');
    const n = notifier();
    const threadKey = `jira:127.0.0.1:${issue.key}`;
    const { ref } = await n.post({ threadKey }, status('QUEUED'));
    const [comment] = jira.model.relayComments(issue.key);
    expect(ref).toEqual({
      threadKey,
      id: `comment:${comment!.id}`,
      url: `${jira.url}/browse/${issue.key}?focusedCommentId=${comment!.id}`,
    });
    expect(words(comment!.body)).toContain('waiting for a machine');
    await n.update(ref, status('INPROGRESS'));
    await n.update(ref, status('INPROGRESS'));
    expect(jira.model.relayComments(issue.key)).toHaveLength(1);
    expect(comment!.edits).toHaveLength(1);
    expect(words(comment!.body)).toContain('is working on');
    expect(jira.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('a retried post finds the comment it already made (its property), and makes no second', async () => {
    const issue = jira.model.addIssue('PROJ');
    const n = notifier();
    const threadKey = `jira:127.0.0.1:${issue.key}`;
    const first = await n.post({ threadKey }, status('QUEUED'), { key: 'n-1' });
    const again = await n.post({ threadKey }, status('QUEUED'), {
      key: 'n-1',
      mayExist: { since: 0 },
    });
    expect(again.ref.id).toBe(first.ref.id);
    expect(jira.model.relayComments(issue.key)).toHaveLength(1);
    const other = await n.post({ threadKey }, status('QUEUED'), {
      key: 'n-2',
      mayExist: { since: 0 },
    });
    expect(other.ref.id).not.toBe(first.ref.id);
  });

  it('moves the issue by the transition named, or leading to the status named, on the first status', async () => {
    const byName = jira.model.addIssue('PROJ');
    await notifier('start work').post(
      { threadKey: `jira:127.0.0.1:${byName.key}` },
      status('QUEUED'),
    );
    expect(byName.status).toBe('In Progress');
    const byStatus = jira.model.addIssue('PROJ');
    await notifier('In Progress').post(
      { threadKey: `jira:127.0.0.1:${byStatus.key}` },
      status('QUEUED'),
    );
    expect(byStatus.status).toBe('In Progress');
    // Never closed, whatever the name says.
    const never = jira.model.addIssue('PROJ');
    await notifier('Done').post({ threadKey: `jira:127.0.0.1:${never.key}` }, status('QUEUED'));
    expect(never.status).toBe('To Do');
    expect(
      pickTransition(
        [{ id: '9', name: 'Close', to: { name: 'Closed', statusCategory: { key: 'done' } } }],
        'closed',
      ),
    ).toBeUndefined();
  });

  it.each([
    [429, { 'retry-after': '7' }, 'rate_limited', true, 7_000],
    [503, {}, 'unavailable', true, undefined],
    [404, {}, 'not_found', false, undefined],
    [403, {}, 'forbidden', false, undefined],
    [400, {}, 'invalid', false, undefined],
  ] as const)(
    'Jira answering %i is a %s DeliveryError',
    async (code, headers, name, retryable, wait) => {
      const issue = jira.model.addIssue('PROJ');
      jira.failNext({ method: 'POST', path: /\/comment$/, status: code, headers });
      const failed = await notifier()
        .post({ threadKey: `jira:127.0.0.1:${issue.key}` }, status('QUEUED'))
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(DeliveryError);
      expect(failed).toMatchObject({ code: name, retryable, retryAfterMs: wait });
    },
  );

  it('an issue that is gone is not_found, and a key of another platform is invalid', async () => {
    const gone = await notifier()
      .post({ threadKey: 'jira:127.0.0.1:PROJ-404' }, status('QUEUED'))
      .catch((e: unknown) => e);
    expect(gone).toMatchObject({ code: 'not_found', retryable: false });
    const wrong = await notifier()
      .post({ threadKey: 'github:o/r#1' }, status('QUEUED'))
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: 'invalid' });
  });
});
