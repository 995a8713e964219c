/**
 * zod schemas of the webhook payloads the ingress reads: only the fields it uses (unknown
 * fields are dropped). A payload of a handled event that does not match is answered 400.
 */
import { z } from 'zod';

/** Bodies are `null` when empty; read them as ''. */
const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');

export const GitHubUser = z.object({
  login: z.string().min(1),
  /** `User`, `Bot` (Apps, Actions) or `Organization`. */
  type: z.string().default('User'),
});
export type GitHubUser = z.infer<typeof GitHubUser>;

const Repository = z.object({
  name: z.string().min(1),
  owner: z.object({ login: z.string().min(1) }),
});

const Installation = z.object({ id: z.number().int().positive() }).nullish();

const Common = {
  repository: Repository,
  installation: Installation,
  sender: GitHubUser,
};

const Label = z.object({ name: z.string() });

/** What an issue and a pull request both carry. */
const Conversation = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: text,
  html_url: z.string(),
  user: GitHubUser,
  author_association: z.string().default('NONE'),
});

const Issue = Conversation.extend({
  /** Present (an object) when the issue is a pull request. */
  pull_request: z.looseObject({}).nullish(),
  labels: z.array(Label).default([]),
});
export type IssuePayload = z.infer<typeof Issue>;

const PullRequest = Conversation.extend({
  head: z.object({ ref: z.string() }),
  base: z.object({ ref: z.string() }),
});
export type PullRequestPayload = z.infer<typeof PullRequest>;

const Comment = z.object({
  id: z.number().int().positive(),
  body: text,
  html_url: z.string(),
  user: GitHubUser,
  author_association: z.string().default('NONE'),
});

export const IssueCommentEvent = z.object({
  action: z.string(),
  issue: Issue,
  comment: Comment,
  ...Common,
});
export type IssueCommentEvent = z.infer<typeof IssueCommentEvent>;

export const ReviewCommentEvent = z.object({
  action: z.string(),
  pull_request: PullRequest,
  comment: Comment.extend({
    path: z.string(),
    line: z.number().int().nullish(),
    original_line: z.number().int().nullish(),
    diff_hunk: text,
    in_reply_to_id: z.number().int().positive().nullish(),
  }),
  ...Common,
});
export type ReviewCommentEvent = z.infer<typeof ReviewCommentEvent>;

export const IssuesEvent = z.object({
  action: z.string(),
  issue: Issue,
  label: Label.nullish(),
  ...Common,
});
export type IssuesEvent = z.infer<typeof IssuesEvent>;

export const PullRequestEvent = z.object({
  action: z.string(),
  pull_request: PullRequest,
  ...Common,
});
export type PullRequestEvent = z.infer<typeof PullRequestEvent>;

/** Just the action, to drop unhandled actions before validating the whole payload. */
export const ActionOnly = z.object({ action: z.string().optional() });
