/**
 * The GitHub half of the hostile-input corpus (see hostile-requests.ts), and a valid,
 * real-shaped comment that would start a run if it got through.
 */
import { fixtureText } from '../github/fixtures.js';
import { signGitHub } from '../../src/fakes/sign-requests.js';
import { GITHUB_BODY_LIMIT_BYTES } from '../../src/core/ingress/body-limit.js';
import { invalidUtf8, nextSeq, post } from './hostile-requests.js';
import type { HostileCase } from './hostile-requests.js';
import { SECRETS } from '../helpers/secrets.js';

function ghHeaders(event: string, body: string | Buffer, contentType = 'application/json') {
  return {
    'content-type': contentType,
    'x-github-event': event,
    'x-github-delivery': `hostile-${nextSeq()}-${Date.now()}`,
    'x-hub-signature-256': signGitHub(body, SECRETS.githubWebhookSecret),
  };
}

/** A comment by a member that mentions the bot: it would start a run if it got through. */
export function validGitHubBody(
  body = '@agent-relay please fix the flaky test',
  issueNumber?: number,
): string {
  const payload = JSON.parse(fixtureText('issue-comment-created')) as Record<
    string,
    Record<string, unknown>
  >;
  if (payload.comment) {
    payload.comment.body = body;
    payload.comment.id = 900_000 + nextSeq();
  }
  if (issueNumber !== undefined && payload.issue) {
    payload.issue.number = issueNumber;
    payload.issue.html_url = `https://github.com/octo-org/widgets/issues/${issueNumber}`;
  }
  return JSON.stringify(payload);
}

/** A case's `send`: the body `make` makes when the case runs, posted as a signed issue_comment. */
const signedGitHub =
  (make: () => string | Buffer) =>
  (url: string): Promise<Response> => {
    const body = make();
    return post(url, ghHeaders('issue_comment', body), body);
  };

export const GITHUB_CASES: HostileCase[] = [
  {
    name: 'bad signature',
    status: [401],
    send: (url) => {
      const body = validGitHubBody();
      return post(
        url,
        { ...ghHeaders('issue_comment', body), 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
        body,
      );
    },
  },
  {
    name: 'missing signature header',
    status: [401],
    send: (url) => {
      const body = validGitHubBody();
      const { 'x-hub-signature-256': _sig, ...headers } = ghHeaders('issue_comment', body);
      return post(url, headers, body);
    },
  },
  {
    name: 'missing event and delivery headers',
    status: [400],
    send: (url) => {
      const body = validGitHubBody();
      return post(
        url,
        {
          'content-type': 'application/json',
          'x-hub-signature-256': signGitHub(body, SECRETS.githubWebhookSecret),
        },
        body,
      );
    },
  },
  {
    name: 'valid signature over a different body',
    status: [401],
    send: (url) => {
      const headers = ghHeaders('issue_comment', validGitHubBody('@agent-relay status'));
      return post(url, headers, validGitHubBody('@agent-relay delete everything'));
    },
  },
  {
    name: 'malformed JSON (signed)',
    status: [400],
    send: signedGitHub(() => '{"action":"created","comment":{'),
  },
  {
    name: 'wrong content type (signed payload as text/plain)',
    status: [415, 400],
    send: (url) => {
      const body = validGitHubBody();
      return post(url, ghHeaders('issue_comment', body, 'text/plain'), body);
    },
  },
  {
    name: 'empty body (signed)',
    // @octokit/webhooks refuses to verify an empty payload: 401 is as safe as 400.
    status: [400, 401],
    send: (url) => post(url, ghHeaders('issue_comment', ''), ''),
  },
  {
    name: 'a body over the 2 MiB limit of /github/webhooks',
    status: [413],
    send: signedGitHub(() =>
      validGitHubBody(`@agent-relay ${'x'.repeat(GITHUB_BODY_LIMIT_BYTES + 1)}`),
    ),
  },
  {
    name: 'invalid UTF-8 (signed over the raw bytes)',
    status: [400, 401],
    send: (url) => {
      const bytes = invalidUtf8(validGitHubBody());
      return post(url, ghHeaders('issue_comment', bytes), bytes);
    },
  },
  {
    name: 'unknown event type',
    status: [200],
    send: (url) => {
      const body = validGitHubBody();
      return post(url, ghHeaders('mystery_event', body), body);
    },
  },
  {
    name: 'issue_comment missing its comment',
    status: [400],
    send: (url) => {
      const payload = JSON.parse(validGitHubBody()) as Record<string, unknown>;
      delete payload.comment;
      const body = JSON.stringify(payload);
      return post(url, ghHeaders('issue_comment', body), body);
    },
  },
  {
    name: 'issue_comment with a comment of the wrong shape',
    status: [400],
    send: (url) => {
      const payload = JSON.parse(validGitHubBody()) as Record<string, Record<string, unknown>>;
      if (payload.comment) payload.comment.user = 'not-an-object';
      const body = JSON.stringify(payload);
      return post(url, ghHeaders('issue_comment', body), body);
    },
  },
];
