/**
 * `issue_comment.created` and `pull_request_review_comment.created` -> candidate Triggers.
 * A review comment's thread is its review-comment thread (root = in_reply_to_id ?? id), and
 * the run gets the file path, line and diff hunk as context.
 */
import {
  authoredCandidate,
  baseOf,
  bound,
  isSelfOrBot,
  issueContext,
  type InterpretOptions,
  type Interpretation,
} from './trigger-candidate.js';
import { IssueCommentEvent, ReviewCommentEvent } from './webhook-payloads.js';

export function fromIssueComment(raw: unknown, opts: InterpretOptions): Interpretation {
  const parsed = IssueCommentEvent.safeParse(raw);
  if (!parsed.success) return { kind: 'invalid', problem: 'issue_comment payload' };
  const { issue, comment } = parsed.data;
  if (isSelfOrBot(comment.user, opts)) return { kind: 'ignore', reason: 'bot_or_self' };
  const base = baseOf(parsed.data, issue.number);
  const isPr = issue.pull_request != null;
  return authoredCandidate(
    base,
    opts,
    comment,
    'issue_comment',
    {
      issue: issueContext(base, issue, isPr, opts.maxBodyChars),
      comment: { url: comment.html_url, body: bound(comment.body, opts.maxBodyChars) },
      permalink: comment.html_url,
    },
    { id: { kind: 'issue', commentId: comment.id }, url: comment.html_url },
  );
}

export function fromReviewComment(raw: unknown, opts: InterpretOptions): Interpretation {
  const parsed = ReviewCommentEvent.safeParse(raw);
  if (!parsed.success) return { kind: 'invalid', problem: 'pull_request_review_comment payload' };
  const { pull_request: pr, comment } = parsed.data;
  if (isSelfOrBot(comment.user, opts)) return { kind: 'ignore', reason: 'bot_or_self' };
  const base = baseOf(parsed.data, pr.number, comment.in_reply_to_id ?? comment.id);
  const line = comment.line ?? comment.original_line ?? undefined;
  return authoredCandidate(
    base,
    opts,
    comment,
    'review_comment',
    {
      issue: issueContext(base, pr, true, opts.maxBodyChars),
      comment: { url: comment.html_url, body: bound(comment.body, opts.maxBodyChars) },
      review: {
        path: comment.path,
        ...(line === undefined ? {} : { line }),
        diffHunk: bound(comment.diff_hunk, opts.maxBodyChars),
      },
      permalink: comment.html_url,
    },
    { id: { kind: 'review', commentId: comment.id }, url: comment.html_url },
  );
}
