import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/core/command/parse-command.js';
import {
  interpretEvent,
  type InterpretOptions,
} from '../../../src/github/ingress/interpret-event.js';
import {
  FIXTURE_EVENT,
  fixture,
  type Change,
  type FixtureName,
  type Payload,
} from '../fixtures.js';

const opts: InterpretOptions = {
  botHandle: 'agent-relay',
  botLogin: 'agent-relay[bot]',
  triggerLabel: 'agent',
  maxBodyChars: 8_000,
  deliveryId: 'd-1',
  receivedAt: '2024-05-15T15:20:22.000Z',
};

function interpret(name: FixtureName, change?: Change, o: Partial<InterpretOptions> = {}) {
  return interpretEvent(FIXTURE_EVENT[name], fixture(name, change), { ...opts, ...o });
}

function candidate(name: FixtureName, change?: Change) {
  const result = interpret(name, change);
  if (result.kind !== 'candidate')
    throw new Error(`expected a candidate, got ${JSON.stringify(result)}`);
  return result;
}

describe('interpretEvent', () => {
  it('issue_comment on an issue -> issue thread, comment context, issue:<id> trigger message', () => {
    const { trigger, permission, installationId } = candidate('issue-comment-created');
    expect(trigger).toMatchObject({
      platform: 'github',
      kind: 'issue_comment',
      threadKey: 'github:octo-org/widgets#42',
      settingsScope: 'github:octo-org/widgets',
      actor: { id: 'alice', association: 'MEMBER' },
      text: '@agent-relay please fix the flaky test in `parser.spec.ts`',
      addressed: false,
      deliveryId: 'd-1',
      receivedAt: opts.receivedAt,
      triggerMessage: {
        threadKey: 'github:octo-org/widgets#42',
        id: 'issue:1001',
        url: 'https://github.com/octo-org/widgets/issues/42#issuecomment-1001',
      },
    });
    expect(trigger.context.issue).toEqual({
      repo: 'octo-org/widgets',
      number: 42,
      title: 'Flaky parser test',
      body: 'The test `parses nested quotes` fails one run in ten.\n\nSee CI run 1234.',
      url: 'https://github.com/octo-org/widgets/issues/42',
      isPullRequest: false,
    });
    expect(trigger.context.comment?.url).toBe(trigger.triggerMessage?.url);
    expect(trigger.context.permalink).toBe(trigger.triggerMessage?.url);
    expect(permission).toEqual({ kind: 'association', value: 'MEMBER' });
    expect(installationId).toBe(2311213);
  });

  it('issue_comment on a PR is marked as a pull request (branches come from a lookup)', () => {
    const { trigger, permission } = candidate('issue-comment-on-pr');
    expect(trigger.threadKey).toBe('github:octo-org/widgets#7');
    expect(trigger.context.issue?.isPullRequest).toBe(true);
    expect(trigger.context.issue?.headRef).toBeUndefined();
    expect(permission).toEqual({ kind: 'association', value: 'COLLABORATOR' });
  });

  it('review comment -> review thread keyed by its root, with path, line and diff hunk', () => {
    const { trigger } = candidate('review-comment-created');
    expect(trigger.kind).toBe('review_comment');
    expect(trigger.threadKey).toBe('github:octo-org/widgets#7/r2001');
    expect(trigger.triggerMessage?.id).toBe('review:2001');
    expect(trigger.context.review).toEqual({
      path: 'src/parser.ts',
      line: 13,
      diffHunk: expect.stringContaining('@@ -10,6 +10,8 @@') as unknown as string,
    });
    expect(trigger.context.issue).toMatchObject({
      isPullRequest: true,
      headRef: 'fix/parser',
      baseRef: 'main',
    });
  });

  it('a reply in a review thread joins the root thread', () => {
    const { trigger } = candidate('review-comment-created', (p) => {
      p.comment.id = 2002;
      p.comment.in_reply_to_id = 2001;
    });
    expect(trigger.threadKey).toBe('github:octo-org/widgets#7/r2001');
    expect(trigger.triggerMessage?.id).toBe('review:2002');
  });

  it('issues.opened and pull_request.opened react on the issue body', () => {
    const issue = candidate('issues-opened').trigger;
    expect(issue).toMatchObject({
      kind: 'issue_opened',
      threadKey: 'github:octo-org/widgets#43',
      addressed: false,
    });
    expect(issue.triggerMessage?.id).toBe('issue-body:43');
    const pr = candidate('pull-request-opened').trigger;
    expect(pr).toMatchObject({
      kind: 'pull_request_opened',
      threadKey: 'github:octo-org/widgets#8',
    });
    expect(pr.context.issue).toMatchObject({
      headRef: 'fix/parser',
      baseRef: 'main',
      isPullRequest: true,
    });
  });

  it('issues.labeled with the trigger label: title and body as a fresh prompt the parser cannot misread', () => {
    const { trigger, permission } = candidate('issues-labeled-agent');
    expect(trigger.kind).toBe('label');
    expect(trigger.addressed).toBe(true);
    expect(trigger.text).toBe(
      'Cancel button does nothing\n\nClicking Cancel on the dialog leaves it open.\n\nSteps: open settings, press Cancel.',
    );
    // The words are a fresh run's prompt: "Cancel" at their start is no command.
    expect(trigger.freshRun).toBe(true);
    const parsed = parseCommand({ ...trigger, botHandle: 'agent-relay' });
    expect(parsed).toMatchObject({ kind: 'command', command: { type: 'run', fresh: true } });
    expect(trigger.actor).toEqual({ id: 'alice', name: 'alice' });
    // alice labelled mallory's issue: labelling takes triage access, so no association check.
    expect(permission).toEqual({ kind: 'label-access' });
    expect(trigger.factoryAlias).toBeUndefined();
  });

  it('a label the author put on their own issue (issue template) checks their association', () => {
    const { permission } = candidate('issues-labeled-agent', (p) => {
      p.sender = p.issue.user;
    });
    expect(permission).toEqual({ kind: 'association', value: 'NONE' });
  });

  it('factory:<alias> label dispatches to that factory', () => {
    const { trigger } = candidate('issues-labeled-factory');
    expect(trigger.factoryAlias).toBe('docs');
    expect(trigger.text).toBe(
      'factory docs Document the exporter\n\nWrite a user guide page for CSV export.',
    );
  });

  it.each([
    ['issue-comment-edited', undefined, 'issue_comment.edited'],
    ['issue-comment-bot', undefined, 'bot_or_self'],
    [
      'issue-comment-created',
      (p: Payload) => (p.comment.user = { login: 'agent-relay', type: 'User' }),
      'bot_or_self',
    ],
    [
      'issue-comment-created',
      (p: Payload) => (p.comment.user = { login: 'relay-machine', type: 'User' }),
      'self (botLogin)',
    ],
    ['issues-labeled-agent', (p: Payload) => (p.label = { name: 'bug' }), 'other_label'],
    [
      'issues-labeled-agent',
      (p: Payload) => (p.sender = { login: 'github-actions[bot]', type: 'Bot' }),
      'bot_or_self',
    ],
    [
      'issues-opened',
      (p: Payload) => (p.issue.labels = [{ name: 'agent' }]),
      'label_event_follows',
    ],
    ['issues-opened', (p: Payload) => (p.action = 'edited'), 'issues.edited'],
    ['pull-request-opened', (p: Payload) => (p.action = 'synchronize'), 'pull_request.synchronize'],
  ] as [FixtureName, Change | undefined, string][])('%s ignored (%s)', (name, change, reason) => {
    const result = interpret(name, change, { botLogin: 'relay-machine' });
    expect(result.kind).toBe('ignore');
    if (reason !== 'self (botLogin)') expect(result).toEqual({ kind: 'ignore', reason });
  });

  it('unknown events are ignored; malformed payloads of handled events are invalid', () => {
    expect(interpretEvent('star', { action: 'created' }, opts)).toEqual({
      kind: 'ignore',
      reason: 'event star',
    });
    expect(interpretEvent('issue_comment', { action: 'created', issue: {} }, opts).kind).toBe(
      'invalid',
    );
    expect(interpretEvent('issue_comment', null, opts).kind).toBe('ignore');
    expect(interpretEvent('issues', [1, 2], opts).kind).toBe('ignore');
  });

  it('bounds long bodies carried as context', () => {
    const { trigger } = candidate('issue-comment-created', (p) => {
      p.issue.body = 'b'.repeat(20_000);
    });
    expect(trigger.context.issue?.body.length).toBeLessThan(8_100);
    expect(trigger.context.issue?.body).toContain('truncated, 12000 more characters');
  });
});
