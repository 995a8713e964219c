/**
 * The ids of Jira messages in `MessageRef.id`, read only by the Jira notifier: a comment
 * (`comment:<id>`) or the issue itself (`issue:<key>`, a label's or an assignment's run).
 */
export type JiraMessageId =
  { kind: 'comment'; commentId: string } | { kind: 'issue'; issueKey: string };

const COMMENT = /^comment:(\d{1,20})$/;
const ISSUE = /^issue:([A-Za-z][A-Za-z0-9_]{0,254}-\d{1,16})$/;

export function encodeJiraMessageId(id: JiraMessageId): string {
  return id.kind === 'comment' ? `comment:${id.commentId}` : `issue:${id.issueKey}`;
}

export function decodeJiraMessageId(id: string): JiraMessageId | undefined {
  const comment = COMMENT.exec(id);
  if (comment) return { kind: 'comment', commentId: comment[1]! };
  const issue = ISSUE.exec(id);
  return issue ? { kind: 'issue', issueKey: issue[1]! } : undefined;
}

/** The browse address of an issue, and of one of its comments. */
export function issueUrl(baseUrl: string, issueKey: string, commentId?: string): string {
  const url = `${baseUrl}/browse/${encodeURIComponent(issueKey)}`;
  return commentId === undefined ? url : `${url}?focusedCommentId=${encodeURIComponent(commentId)}`;
}
