import { describe, expect, it } from 'vitest';
import { signGitHub } from '../../../src/fakes/sign-requests.js';
import { GITHUB_BODY_LIMIT_BYTES } from '../../../src/core/ingress/body-limit.js';
import { postGitHub, TEST_GITHUB_SECRET } from '../../helpers/github.js';
import {
  FIXTURE_EVENT,
  fixture,
  fixtureText,
  type Change,
  type FixtureName,
  type Payload,
} from '../fixtures.js';
import { startIngress, type IngressHarness } from './harness.js';
import { worldPerTest } from '../../helpers/world-per-test.js';

const start = worldPerTest(startIngress);

async function deliver(
  h: IngressHarness,
  name: FixtureName,
  deliveryId = `d-${name}`,
  change?: Change,
) {
  const body = change === undefined ? fixtureText(name) : JSON.stringify(fixture(name, change));
  const res = await postGitHub(h.url, body, { event: FIXTURE_EVENT[name], deliveryId });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('GitHub ingress: accepted triggers', () => {
  it('accepts JSON with a charset parameter (any case)', async () => {
    const h = await start();
    const res = await postGitHub(h.url, fixtureText('issue-comment-created'), {
      event: 'issue_comment',
      deliveryId: 'charset-1',
      contentType: 'Application/JSON; charset=utf-8',
    });
    expect(res.status).toBe(202);
    expect(h.sink.triggers).toHaveLength(1);
  });

  it('a mention on an issue reaches the sink, then 202', async () => {
    const h = await start();
    const { status, json } = await deliver(h, 'issue-comment-created', 'delivery-1');
    expect(status).toBe(202);
    expect(json).toEqual({ ok: true, result: 'accepted' });
    expect(h.sink.triggers).toHaveLength(1);
    expect(h.sink.triggers[0]).toMatchObject({
      kind: 'issue_comment',
      deliveryId: 'delivery-1',
      threadKey: 'github:octo-org/widgets#42',
      receivedAt: expect.stringMatching(/^2024-05-15T15:20:22\.\d{3}Z$/) as unknown as string,
    });
    expect(h.installations).toEqual([['octo-org', 'widgets', 2311213]]);
  });

  it('the same delivery id twice -> one trigger, the second answered 200 duplicate', async () => {
    const h = await start();
    expect((await deliver(h, 'issue-comment-created', 'same')).status).toBe(202);
    const again = await deliver(h, 'issue-comment-created', 'same');
    expect(again).toEqual({ status: 200, json: { ok: true, result: 'duplicate' } });
    expect(h.sink.triggers).toHaveLength(1);
  });

  it('review comment, label, factory label, opened issue and PR are accepted', async () => {
    const h = await start();
    for (const name of [
      'review-comment-created',
      'issues-labeled-agent',
      'issues-labeled-factory',
      'issues-opened',
      'pull-request-opened',
    ] as FixtureName[]) {
      expect((await deliver(h, name)).status, name).toBe(202);
    }
    expect(h.sink.triggers.map((t) => t.kind)).toEqual([
      'review_comment',
      'label',
      'label',
      'issue_opened',
      'pull_request_opened',
    ]);
    expect(h.sink.triggers[2]?.factoryAlias).toBe('docs');
  });

  it('a comment on a PR is handed over as it came: the run looks its branches up', async () => {
    const h = await start();
    expect((await deliver(h, 'issue-comment-on-pr')).status).toBe(202);
    expect(h.sink.triggers[0]?.context.issue).toMatchObject({
      repo: 'octo-org/widgets',
      number: 7,
      isPullRequest: true,
    });
    expect(h.sink.triggers[0]?.context.issue?.headRef).toBeUndefined();
  });

  it('accepts a body signed with the previous secret during a rotation', async () => {
    const h = await start({ secret: 'new-secret', previousSecret: TEST_GITHUB_SECRET });
    expect((await deliver(h, 'issue-comment-created')).status).toBe(202);
    const res = await postGitHub(h.url, fixtureText('issue-comment-created'), {
      event: 'issue_comment',
      deliveryId: 'with-new',
      secret: 'new-secret',
    });
    expect(res.status).toBe(202);
    expect(h.sink.triggers).toHaveLength(2);
  });

  it('accepts the form encoding (payload=…) GitHub can be set to', async () => {
    const h = await start();
    const body = new URLSearchParams({ payload: fixtureText('issue-comment-created') }).toString();
    const res = await postGitHub(h.url, body, {
      event: 'issue_comment',
      deliveryId: 'form-1',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(202);
    expect(h.sink.triggers).toHaveLength(1);
  });
});

describe('GitHub ingress: acknowledged and ignored', () => {
  it.each([
    ['ping', 'pong'],
    ['issue-comment-edited', 'ignored'],
    ['issue-comment-bot', 'ignored'],
  ] as [FixtureName, string][])('%s -> 200 %s, nothing recorded', async (name, result) => {
    const h = await start();
    const { status, json } = await deliver(h, name);
    expect(status).toBe(200);
    expect(json.result).toBe(result);
    expect(h.sink.triggers).toHaveLength(0);
    expect(h.outbox).toHaveLength(0);
  });

  it('unknown events are acknowledged', async () => {
    const h = await start();
    const res = await postGitHub(h.url, '{"action":"created","starred_at":null}', {
      event: 'star',
      deliveryId: 's-1',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, result: 'ignored', reason: 'event star' });
  });

  it('comments that do not address the bot (or only inside code or quotes) are dropped', async () => {
    const h = await start();
    const bodies = [
      'LGTM, thanks!',
      'Run `@agent-relay fix it` to try',
      '> @agent-relay fix it\n\nquoted above',
      '```\n/agent cancel\n```',
    ];
    for (const [i, body] of bodies.entries()) {
      const { status, json } = await deliver(
        h,
        'issue-comment-created',
        `n-${i}`,
        (p) => (p.comment.body = body),
      );
      expect(status).toBe(200);
      expect(json.result).toBe('ignored');
    }
    expect(h.sink.triggers).toHaveLength(0);
  });

  it('/agent cancel and follow-up comments pass through as triggers', async () => {
    const h = await start();
    await deliver(h, 'issue-comment-created', 'c-1', (p) => (p.comment.body = '/agent cancel'));
    await deliver(
      h,
      'issue-comment-created',
      'c-2',
      (p) => (p.comment.body = '@agent-relay also update the docs'),
    );
    expect(h.sink.triggers.map((t) => t.text)).toEqual([
      '/agent cancel',
      '@agent-relay also update the docs',
    ]);
  });
});

describe('GitHub ingress: permissions', () => {
  it('an outsider who addresses the bot gets one polite refusal and no trigger', async () => {
    const h = await start();
    const outsider = (p: Payload) => {
      p.comment.user = { login: 'mallory', type: 'User' };
      p.comment.author_association = 'CONTRIBUTOR';
    };
    const first = await deliver(h, 'issue-comment-created', 'o-1', outsider);
    expect(first).toEqual({ status: 200, json: { ok: true, result: 'refused', detail: 'queued' } });
    expect(h.sink.triggers).toHaveLength(0);
    expect(h.outbox).toHaveLength(1);
    expect(h.outbox[0]).toMatchObject({
      kind: 'post',
      destination: { threadKey: 'github:octo-org/widgets#42' },
      message: { type: 'notice', mention: { platform: 'github', id: 'mallory' } },
    });
    const text = (h.outbox[0]?.message as { text: string }).text;
    expect(text).toContain('the repository owner, members of the organization and collaborators');
    // Redelivery and a second attempt soon after: no second reply.
    expect((await deliver(h, 'issue-comment-created', 'o-1', outsider)).json.detail).toBe(
      'duplicate',
    );
    expect((await deliver(h, 'issue-comment-created', 'o-2', outsider)).json.detail).toBe(
      'suppressed',
    );
    expect(h.outbox).toHaveLength(1);
  });

  it('an outsider who does not address the bot is ignored silently', async () => {
    const h = await start();
    const { json } = await deliver(h, 'issue-comment-created', 'o-3', (p) => {
      p.comment.author_association = 'NONE';
      p.comment.body = 'me too';
    });
    expect(json.result).toBe('ignored');
    expect(h.outbox).toHaveLength(0);
  });

  it('cancel by an outsider is refused like any other command', async () => {
    const h = await start();
    const { json } = await deliver(h, 'issue-comment-created', 'o-4', (p) => {
      p.comment.author_association = 'FIRST_TIME_CONTRIBUTOR';
      p.comment.body = '/agent cancel';
    });
    expect(json.result).toBe('refused');
    expect(h.sink.triggers).toHaveLength(0);
  });

  it('GITHUB_ALLOWED_ASSOCIATIONS is honoured', async () => {
    const h = await start({ allowedAssociations: ['OWNER'] });
    expect((await deliver(h, 'issue-comment-created')).json.result).toBe('refused');
    const owner = await deliver(h, 'issues-opened');
    expect(owner.status).toBe(202);
  });

  it('a label by the issue author without write access is refused', async () => {
    const h = await start();
    const { json } = await deliver(
      h,
      'issues-labeled-agent',
      'l-1',
      (p) => (p.sender = p.issue.user),
    );
    expect(json.result).toBe('refused');
    expect(h.sink.triggers).toHaveLength(0);
  });
});

describe('GitHub ingress: rejected requests record nothing', () => {
  async function expectRejected(h: IngressHarness, res: Response, status: number, error: string) {
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ ok: false, error });
    expect(h.sink.triggers).toHaveLength(0);
    expect(h.outbox).toHaveLength(0);
    expect(h.installations).toHaveLength(0);
  }

  it('a signed body with a content type other than JSON or form -> 415', async () => {
    const h = await start();
    const body = fixtureText('issue-comment-created');
    for (const contentType of ['text/plain', 'application/xml', '']) {
      const res = await postGitHub(h.url, body, {
        event: 'issue_comment',
        deliveryId: `ct-${contentType}`,
        contentType,
      });
      await expectRejected(h, res, 415, 'unsupported_media_type');
    }
  });

  it('bad signature -> 401', async () => {
    const h = await start();
    const body = fixtureText('issue-comment-created');
    const res = await postGitHub(h.url, body, {
      event: 'issue_comment',
      deliveryId: 'x',
      secret: 'wrong',
    });
    await expectRejected(h, res, 401, 'bad_signature');
    expect(h.logger.lines.some((l) => l.level === 'warn' && l.obj.deliveryId === 'x')).toBe(true);
  });

  it('a body changed after signing -> 401', async () => {
    const h = await start();
    const body = fixtureText('issue-comment-created');
    const signature = signGitHub(body, TEST_GITHUB_SECRET);
    const res = await postGitHub(h.url, body.replace('MEMBER', 'OWNER'), {
      event: 'issue_comment',
      deliveryId: 'x',
      signature,
    });
    await expectRejected(h, res, 401, 'bad_signature');
  });

  it('missing signature -> 401; sha1-only signature -> 401', async () => {
    const h = await start();
    const body = fixtureText('issue-comment-created');
    await expectRejected(
      h,
      await postGitHub(h.url, body, { event: 'issue_comment', deliveryId: 'x', signature: null }),
      401,
      'missing_signature',
    );
    await expectRejected(
      h,
      await postGitHub(h.url, body, {
        event: 'issue_comment',
        deliveryId: 'x',
        signature: 'sha1=0123456789abcdef0123456789abcdef01234567',
      }),
      401,
      'bad_signature',
    );
  });

  it('missing X-GitHub-Event or X-GitHub-Delivery -> 400', async () => {
    const h = await start();
    const body = fixtureText('issue-comment-created');
    await expectRejected(
      h,
      await postGitHub(h.url, body, { event: '', deliveryId: 'x' }),
      400,
      'missing_header',
    );
    await expectRejected(
      h,
      await postGitHub(h.url, body, { event: 'issue_comment', deliveryId: '' }),
      400,
      'missing_header',
    );
  });

  it('signed but malformed JSON -> 400', async () => {
    const h = await start();
    await expectRejected(
      h,
      await postGitHub(h.url, '{"action": "created",', { event: 'issue_comment', deliveryId: 'x' }),
      400,
      'malformed_json',
    );
  });

  it('signed JSON missing required fields -> 400', async () => {
    const h = await start();
    const body = JSON.stringify({ action: 'created', issue: { number: 'seven' }, comment: {} });
    await expectRejected(
      h,
      await postGitHub(h.url, body, { event: 'issue_comment', deliveryId: 'x' }),
      400,
      'invalid_payload',
    );
  });

  it('a body over the 2 MiB limit -> 413', async () => {
    const h = await start();
    const body = JSON.stringify({ action: 'created', pad: 'x'.repeat(GITHUB_BODY_LIMIT_BYTES) });
    await expectRejected(
      h,
      await postGitHub(h.url, body, { event: 'issue_comment', deliveryId: 'x' }),
      413,
      'body_too_large',
    );
  });

  it('GET -> 405', async () => {
    const h = await start();
    const res = await fetch(h.url);
    await expectRejected(h, res, 405, 'method_not_allowed');
  });

  it('inbox unavailable -> 503, so the delivery shows as failed and can be redelivered', async () => {
    const h = await start();
    h.sink.failing = true;
    const { status, json } = await deliver(h, 'issue-comment-created');
    expect(status).toBe(503);
    expect(json.error).toBe('unavailable');
  });
});
