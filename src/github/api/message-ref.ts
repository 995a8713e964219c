/**
 * GitHub `MessageRef.id`s (opaque to the core; only the GitHub side reads them):
 * - `issue:<comment id>`   an issue or pull-request conversation comment
 * - `review:<comment id>`  a pull-request review comment
 * - `issue-body:<number>`  the issue or pull request itself (label and "opened" triggers)
 */
export type GitHubMessageId =
  | { kind: 'issue'; commentId: number }
  | { kind: 'review'; commentId: number }
  | { kind: 'issue-body'; number: number };

export function encodeMessageId(id: GitHubMessageId): string {
  return id.kind === 'issue-body' ? `issue-body:${id.number}` : `${id.kind}:${id.commentId}`;
}

const MESSAGE_ID = /^(issue|review|issue-body):([1-9]\d{0,15})$/;

/** Decode an id; `undefined` when it is not a GitHub message id. Never throws. */
export function decodeMessageId(id: string): GitHubMessageId | undefined {
  const m = MESSAGE_ID.exec(id);
  if (!m) return undefined;
  const n = Number(m[2]);
  if (!Number.isSafeInteger(n)) return undefined;
  if (m[1] === 'issue-body') return { kind: 'issue-body', number: n };
  return { kind: m[1] === 'review' ? 'review' : 'issue', commentId: n };
}
