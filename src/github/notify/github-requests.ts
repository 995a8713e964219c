/**
 * The few GitHub REST calls the notifier makes, one function each, with the responses we
 * read validated by zod. Errors are Octokit's; the notifier turns them into DeliveryErrors.
 */
import { z } from 'zod';
import type { RelayOctokit } from '../api/github-client.js';
import type { GitHubMessageId } from '../api/message-ref.js';
import type { GitHubReaction } from './reactions.js';

/** Where a call goes: an authenticated client, the repository, and its deadline. */
export interface Target {
  octokit: RelayOctokit;
  owner: string;
  repo: string;
  signal: AbortSignal;
}

const CreatedComment = z.object({
  id: z.number().int().positive(),
  html_url: z.string().optional(),
});
const PullRefs = z.object({
  head: z.object({ ref: z.string() }),
  base: z.object({ ref: z.string() }),
});

/** A comment on the conversation, or a reply in a review-comment thread (to its root). */
export async function createComment(
  t: Target,
  where: { number: number; reviewCommentId?: number },
  body: string,
): Promise<{ id: GitHubMessageId; url?: string }> {
  const { octokit, owner, repo } = t;
  const request = { signal: t.signal };
  if (where.reviewCommentId !== undefined) {
    const res = await octokit.rest.pulls.createReplyForReviewComment({
      owner,
      repo,
      pull_number: where.number,
      comment_id: where.reviewCommentId,
      body,
      request,
    });
    const data = CreatedComment.parse(res.data);
    return { id: { kind: 'review', commentId: data.id }, url: data.html_url };
  }
  const res = await octokit.rest.issues.createComment({
    owner,
    repo,
    issue_number: where.number,
    body,
    request,
  });
  const data = CreatedComment.parse(res.data);
  return { id: { kind: 'issue', commentId: data.id }, url: data.html_url };
}

const ListedComment = z.object({
  id: z.number().int().positive(),
  body: z.string().nullish(),
  html_url: z.string().optional(),
  in_reply_to_id: z.number().optional(),
});
const ListedComments = z.array(ListedComment);
export type ListedComment = z.infer<typeof ListedComment>;

/**
 * The thread's comments updated since `since` (epoch ms), oldest first, at most
 * `maxPages` pages of 100: the conversation's comments, or the replies to a review thread.
 */
export async function listRecentComments(
  t: Target,
  where: { number: number; reviewCommentId?: number },
  since: number,
  maxPages = 5,
): Promise<ListedComment[]> {
  const { octokit, owner, repo } = t;
  const common = {
    owner,
    repo,
    since: new Date(since).toISOString(),
    per_page: 100,
    request: { signal: t.signal },
  };
  const found: ListedComment[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const res =
      where.reviewCommentId === undefined
        ? await octokit.rest.issues.listComments({ ...common, issue_number: where.number, page })
        : await octokit.rest.pulls.listReviewComments({
            ...common,
            pull_number: where.number,
            page,
          });
    const comments = ListedComments.parse(res.data);
    found.push(
      ...comments.filter(
        (c) =>
          where.reviewCommentId === undefined ||
          c.in_reply_to_id === where.reviewCommentId ||
          c.id === where.reviewCommentId,
      ),
    );
    if (comments.length < 100) break;
  }
  return found;
}

export async function editComment(
  t: Target,
  id: Extract<GitHubMessageId, { commentId: number }>,
  body: string,
): Promise<void> {
  const args = {
    owner: t.owner,
    repo: t.repo,
    comment_id: id.commentId,
    body,
    request: { signal: t.signal },
  };
  if (id.kind === 'review') await t.octokit.rest.pulls.updateReviewComment(args);
  else await t.octokit.rest.issues.updateComment(args);
}

const CreatedReaction = z.object({ id: z.number().int().positive() });

/**
 * The reactions endpoint of what `id` names (an issue or PR body, a review comment, an issue
 * comment) as an Octokit route and its parameters, for `verb` and an optional `tail`.
 */
function reactions(t: Target, id: GitHubMessageId, verb: string, tail = '') {
  const where =
    id.kind === 'issue-body'
      ? { path: 'issues/{issue_number}', issue_number: id.number }
      : {
          path: `${id.kind === 'review' ? 'pulls' : 'issues'}/comments/{comment_id}`,
          comment_id: id.commentId,
        };
  const { path, ...params } = where;
  const route = `${verb} /repos/{owner}/{repo}/${path}/reactions${tail}`;
  return [
    route,
    { owner: t.owner, repo: t.repo, ...params, request: { signal: t.signal } },
  ] as const;
}

/** Add a reaction; GitHub answers with the reaction (the existing one if it was there). */
export async function addReaction(
  t: Target,
  id: GitHubMessageId,
  content: GitHubReaction,
): Promise<{ reactionId: number }> {
  const [route, params] = reactions(t, id, 'POST');
  const created = await t.octokit.request(route, { ...params, content });
  return { reactionId: CreatedReaction.parse(created.data).id };
}

/** Delete one reaction by its id; false when GitHub no longer has it (404). */
export async function deleteReaction(
  t: Target,
  id: GitHubMessageId,
  reactionId: number,
): Promise<boolean> {
  const [route, params] = reactions(t, id, 'DELETE', '/{reaction_id}');
  try {
    await t.octokit.request(route, { ...params, reaction_id: reactionId });
    return true;
  } catch (err) {
    if ((err as { status?: unknown }).status === 404) return false;
    throw err;
  }
}

const ListedReactions = z.array(
  z.object({
    id: z.number(),
    content: z.string(),
    user: z.object({ login: z.string() }).nullish(),
  }),
);

/**
 * Delete the reactions `login` put on a comment or issue body whose content is one of
 * `contents`. One listing per content (GitHub filters by content), then a delete each. Only
 * for reactions added before their ids were recorded: the listing names the App's bot only
 * under App auth.
 */
export async function removeReactions(
  t: Target,
  id: GitHubMessageId,
  contents: readonly GitHubReaction[],
  login: string,
): Promise<void> {
  const [route, params] = reactions(t, id, 'GET');
  for (const content of new Set(contents)) {
    const listed = await t.octokit.request(route, { ...params, content });
    const ours = ListedReactions.parse(listed.data).filter(
      (r) => r.content === content && r.user?.login.toLowerCase() === login.toLowerCase(),
    );
    for (const reaction of ours) await deleteReaction(t, id, reaction.id);
  }
}

export async function getPullRequestRefs(
  t: Target,
  number: number,
): Promise<{ headRef: string; baseRef: string }> {
  const res = await t.octokit.rest.pulls.get({
    owner: t.owner,
    repo: t.repo,
    pull_number: number,
    request: { signal: t.signal },
  });
  const data = PullRefs.parse(res.data);
  return { headRef: data.head.ref, baseRef: data.base.ref };
}
