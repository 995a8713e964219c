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
