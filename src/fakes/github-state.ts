/**
 * What the fake GitHub holds, as GitHub holds it: issue comments and review-comment replies
 * with their edits and reactions, every reaction request, repositories' installations and pull
 * requests' branches; and a listener told of every comment, edit and reaction.
 */
import type { GitHubSchema, PublishedAnswer } from './github-published.js';

export interface FakeComment {
  id: number;
  kind: 'issue' | 'review';
  owner: string;
  repo: string;
  number: number;
  /** Who wrote it: the App's bot, or a person the demo has comment. */
  author: string;
  /** The current body (after the last edit). */
  body: string;
  /** The body it was created with. */
  firstBody: string;
  /** Bodies after each edit, in order. */
  edits: string[];
  inReplyTo?: number;
  /** Epoch ms of the creation or last edit (what the list endpoints' `since` filters on). */
  updatedAt: number;
  /** Reactions on it, each content once. */
  reactions: string[];
}

export interface FakeReaction {
  target: 'issue_comment' | 'review_comment' | 'issue';
  id: number;
  content: string;
}

export type GitHubChange =
  | { kind: 'comment' | 'edit'; comment: FakeComment }
  /** `issue` is where the reacted-to comment or issue body is (`owner/repo#n`). */
  | { kind: 'react'; reaction: FakeReaction; issue: string };

export type NewComment = Pick<FakeComment, 'kind' | 'owner' | 'repo' | 'number' | 'body'> &
  Partial<Pick<FakeComment, 'author' | 'inReplyTo'>>;

export const BOT_LOGIN = 'agent-relay[bot]';

/** `owner/repo#number`, the issue or pull request a comment is on. */
export const issueOf = (c: Pick<FakeComment, 'owner' | 'repo' | 'number'>): string =>
  `${c.owner}/${c.repo}#${c.number}`;

/** A comment as the REST API returns it. */
/** A comment as GitHub's description answers one (`issue-comment`, `pull-request-review-comment`). */
export function commentJson(
  c: FakeComment,
): PublishedAnswer<GitHubSchema['issue-comment']> &
  PublishedAnswer<Pick<GitHubSchema['pull-request-review-comment'], 'in_reply_to_id'>> {
  return {
    id: c.id,
    node_id: `IC_${c.id}`,
    body: c.body,
    html_url:
      c.kind === 'review'
        ? `https://github.com/${c.owner}/${c.repo}/pull/${c.number}#discussion_r${c.id}`
        : `https://github.com/${c.owner}/${c.repo}/issues/${c.number}#issuecomment-${c.id}`,
    user: { login: c.author, type: c.author.endsWith('[bot]') ? 'Bot' : 'User' },
    // Absent on an issue comment (JSON leaves out what is undefined).
    in_reply_to_id: c.inReplyTo,
  };
}

export type GitHubState = ReturnType<typeof createGitHubState>;

export function createGitHubState(now: () => number) {
  const comments = new Map<number, FakeComment>();
  const reactions: FakeReaction[] = [];
  /** The reactions on things now (requests minus deletions), as GitHub lists them. */
  const present: (FakeReaction & { reactionId: number; repo: string; user: string })[] = [];
  let nextReactionId = 9000;
  const installations = new Map<string, number>();
  const pulls = new Map<string, { head: string; base: string; sha?: string }>();
  /** Repository roles by `owner/repo\u0000login` (lower case); see `permissionOf`. */
  const permissions = new Map<string, string>();
  const listeners: ((change: GitHubChange) => void)[] = [];
  let nextId = 5000;
  const emit = (change: GitHubChange) => listeners.forEach((listener) => listener(change));

  return {
    comments,
    reactions,
    installations,
    pulls,
    permissions,
    /** Checks of the collaborator permission endpoint, as `owner/repo:login`, in order. */
    permissionLookups: [] as string[],
    emit,
    onChange: (listener: (change: GitHubChange) => void) => void listeners.push(listener),
    create(c: NewComment): FakeComment {
      const comment: FakeComment = {
        ...c,
        author: c.author ?? BOT_LOGIN,
        id: ++nextId,
        firstBody: c.body,
        edits: [],
        updatedAt: now(),
        reactions: [],
      };
      comments.set(comment.id, comment);
      return comment;
    },
    edit(comment: FakeComment, body: string): void {
      comment.body = body;
      comment.edits.push(body);
      comment.updatedAt = now();
      emit({ kind: 'edit', comment });
    },
    /** The reactions now on one comment or issue body. */
    reactionsOn(
      target: FakeReaction['target'],
      id: number,
      where: { owner: string; repo: string },
    ) {
      const repo = `${where.owner}/${where.repo}`.toLowerCase();
      return present.filter((r) => r.target === target && r.id === id && r.repo === repo);
    },
    unreact(reactionId: number): boolean {
      const at = present.findIndex((r) => r.reactionId === reactionId);
      const [gone] = at < 0 ? [] : present.splice(at, 1);
      if (gone === undefined) return false;
      const comment = gone.target === 'issue' ? undefined : comments.get(gone.id);
      if (comment) comment.reactions = comment.reactions.filter((c) => c !== gone.content);
      return true;
    },
    /** A reaction by `user` (default the App's bot); the same one again keeps its id. */
    react(
      reaction: FakeReaction,
      where: { owner: string; repo: string },
      user: string = BOT_LOGIN,
    ): number {
      reactions.push(reaction);
      const repo = `${where.owner}/${where.repo}`.toLowerCase();
      const same = present.find(
        (r) =>
          r.target === reaction.target &&
          r.id === reaction.id &&
          r.repo === repo &&
          r.user === user &&
          r.content === reaction.content,
      );
      const reactionId = same?.reactionId ?? ++nextReactionId;
      if (same === undefined) present.push({ ...reaction, reactionId, repo, user });
      const comment = reaction.target === 'issue' ? undefined : comments.get(reaction.id);
      if (comment && !comment.reactions.includes(reaction.content))
        comment.reactions.push(reaction.content);
      const issue = comment
        ? issueOf(comment)
        : `${where.owner}/${where.repo}${reaction.target === 'issue' ? `#${reaction.id}` : ''}`;
      emit({ kind: 'react', reaction, issue });
      return reactionId;
    },
  };
}
