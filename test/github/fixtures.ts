/** Real-shaped GitHub webhook payloads from test/github/fixtures/. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type FixtureName =
  | 'issue-comment-created'
  | 'issue-comment-on-pr'
  | 'issue-comment-edited'
  | 'issue-comment-bot'
  | 'review-comment-created'
  | 'issues-opened'
  | 'pull-request-opened'
  | 'issues-labeled-agent'
  | 'issues-labeled-factory'
  | 'check-run-requested-action'
  | 'ping';

/** The webhook event name (`X-GitHub-Event`) each fixture is delivered as. */
export const FIXTURE_EVENT: Record<FixtureName, string> = {
  'issue-comment-created': 'issue_comment',
  'issue-comment-on-pr': 'issue_comment',
  'issue-comment-edited': 'issue_comment',
  'issue-comment-bot': 'issue_comment',
  'review-comment-created': 'pull_request_review_comment',
  'issues-opened': 'issues',
  'pull-request-opened': 'pull_request',
  'issues-labeled-agent': 'issues',
  'issues-labeled-factory': 'issues',
  'check-run-requested-action': 'check_run',
  ping: 'ping',
};

/** The payload as JSON text. */
export function fixtureText(name: FixtureName): string {
  return readFileSync(fileURLToPath(new URL(`./fixtures/${name}.json`, import.meta.url)), 'utf8');
}

/**
 * A payload as tests see it: loosely typed on purpose, so a test can reshape any field
 * (the ingress validates with zod, which is what these tests exercise).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Payload = Record<string, any>;
export type Change = (payload: Payload) => void;

/** The payload as an object, optionally changed (a deep copy each call). */
export function fixture(name: FixtureName, change?: Change): Payload {
  const payload = JSON.parse(fixtureText(name)) as Payload;
  change?.(payload);
  return payload;
}

let comments = 0;

/**
 * A comment by `login` (its `association` with the repository) saying `text` on issue or pull
 * request `number` of octo-org/widgets, as GitHub sends it: a comment id and a delivery of its
 * own each call.
 */
export function commentEvent(
  on: 'issues' | 'pull',
  number: number,
  login: string,
  association: string,
  text: string,
): { body: string; delivery: { event: string; deliveryId: string } } {
  comments += 1;
  const id = 800_000 + comments;
  const payload = fixture(on === 'pull' ? 'issue-comment-on-pr' : 'issue-comment-created', (p) => {
    p.comment.id = id;
    p.comment.body = text;
    p.comment.user.login = login;
    p.comment.author_association = association;
    p.issue.number = number;
    p.issue.html_url = `https://github.com/octo-org/widgets/${on}/${number}`;
    p.comment.html_url = `${p.issue.html_url}#issuecomment-${id}`;
  });
  return {
    body: JSON.stringify(payload),
    delivery: { event: 'issue_comment', deliveryId: `comment-${id}-${Date.now()}` },
  };
}
