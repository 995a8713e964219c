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

/** Interpret one event (`X-GitHub-Event`) with its parsed JSON payload. */
export function interpretEvent(
  event: string,
  payload: unknown,
  opts: InterpretOptions,
): Interpretation {
  const action = (payload as { action?: unknown } | null)?.action;
  switch (event) {
    case 'issue_comment':
      return action === 'created'
        ? fromIssueComment(payload, opts)
        : { kind: 'ignore', reason: `issue_comment.${String(action)}` };
    case 'pull_request_review_comment':
      return action === 'created'
        ? fromReviewComment(payload, opts)
        : { kind: 'ignore', reason: `review_comment.${String(action)}` };
    case 'issues':
      return action === 'opened' || action === 'labeled'
        ? fromIssues(payload, opts)
        : { kind: 'ignore', reason: `issues.${String(action)}` };
    case 'pull_request':
      return action === 'opened'
        ? fromPullRequest(payload, opts)
        : { kind: 'ignore', reason: `pull_request.${String(action)}` };
    case 'check_run':
      return fromCheckRun(payload, opts);
    default:
      return { kind: 'ignore', reason: `event ${event}` };
  }
}
