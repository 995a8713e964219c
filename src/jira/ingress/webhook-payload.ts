/**
 * The parts of Jira's webhook bodies the relay reads (Atlassian's "Webhooks" page, "Example
 * callback for an issue-related event" and the comment events), validated; everything else a
 * site sends is let through untouched. Jira sends a comment's `body` and an issue's
 * `description` as wiki-markup strings in these payloads; a body given as ADF is read too.
 */
import { z } from 'zod';

const User = z.looseObject({
  accountId: z.string().min(1).max(128),
  displayName: z.string().max(500).optional(),
  accountType: z.string().optional(),
});

const Issue = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  key: z.string().min(1).max(300),
  self: z.string().max(2000).optional(),
  fields: z
    .looseObject({
      summary: z.string().max(10_000).nullish(),
      description: z.unknown().optional(),
      labels: z.array(z.string()).nullish(),
      assignee: z.looseObject({ accountId: z.string() }).nullish(),
      project: z.looseObject({ key: z.string() }).nullish(),
    })
    .optional(),
});

const ChangeItem = z.looseObject({
  field: z.string().optional(),
  fieldId: z.string().optional(),
  from: z.string().nullish(),
  to: z.string().nullish(),
  fromString: z.string().nullish(),
  toString: z.string().nullish(),
});

export const IssueUpdated = z.looseObject({
  webhookEvent: z.enum(['jira:issue_updated', 'jira:issue_created']),
  timestamp: z.number().optional(),
  user: User.optional(),
  issue: Issue,
  changelog: z
    .looseObject({
      id: z.union([z.string(), z.number()]).transform(String).optional(),
      items: z.array(ChangeItem).max(500),
    })
    .optional(),
});
export type IssueUpdatedEvent = z.infer<typeof IssueUpdated>;

export const CommentCreated = z.looseObject({
  webhookEvent: z.literal('comment_created'),
  timestamp: z.number().optional(),
  issue: Issue,
  comment: z.looseObject({
    id: z.union([z.string(), z.number()]).transform(String),
    self: z.string().max(2000).optional(),
    author: User,
    body: z.unknown(),
  }),
});
export type CommentCreatedEvent = z.infer<typeof CommentCreated>;

export type JiraIssuePayload = z.infer<typeof Issue>;
