/**
 * A verified, parsed webhook -> what it means for the relay: nothing (ignored, with a
 * reason), an invalid payload, or a candidate Trigger plus what the permission gate needs.
 * Pure: no I/O, no clock (the caller passes the delivery id and the receive time). Only
 * `created` comments, `opened` issues/PRs and `labeled` issues count: edits never trigger.
 */
import { fromIssueComment, fromReviewComment } from './interpret-comments.js';
import { fromCheckRun } from './interpret-check-run.js';
import { fromIssues, fromPullRequest } from './interpret-issues.js';
import type { InterpretOptions, Interpretation } from './trigger-candidate.js';

export type { InterpretOptions, Interpretation, Permission } from './trigger-candidate.js';

interface ByAction {
  actions: string[];
  /** The event's name in an ignore reason. */
  name: string;
  interpret: (payload: unknown, opts: InterpretOptions) => Interpretation;
}

/** The events read by what they say, with the actions that count. */
const BY_ACTION = new Map<string, ByAction>([
  ['issue_comment', { actions: ['created'], name: 'issue_comment', interpret: fromIssueComment }],
  [
    'pull_request_review_comment',
    { actions: ['created'], name: 'review_comment', interpret: fromReviewComment },
  ],
  ['issues', { actions: ['opened', 'labeled'], name: 'issues', interpret: fromIssues }],
  ['pull_request', { actions: ['opened'], name: 'pull_request', interpret: fromPullRequest }],
]);

/** Interpret one event (`X-GitHub-Event`) with its parsed JSON payload. */
export function interpretEvent(
  event: string,
  payload: unknown,
  opts: InterpretOptions,
): Interpretation {
  if (event === 'check_run') return fromCheckRun(payload, opts);
  const byAction = BY_ACTION.get(event);
  if (byAction === undefined) return { kind: 'ignore', reason: `event ${event}` };
  const action = (payload as { action?: unknown } | null)?.action;
  return byAction.actions.includes(action as string)
    ? byAction.interpret(payload, opts)
    : { kind: 'ignore', reason: `${byAction.name}.${String(action)}` };
}
