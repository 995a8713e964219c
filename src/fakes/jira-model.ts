/**
 * What the fake Jira knows: one site with projects, their issues (summary, description,
 * labels, status, assignee), the comments on them with their comment properties and edits,
 * people with their project permissions, and a workflow whose transitions lead from status
 * to status. Shaped by Atlassian's REST v3 reference (issue comments, issue transitions,
 * "Find users with permissions", myself) and its ADF structure reference.
 */

export interface FakeJiraUser {
  accountId: string;
  displayName: string;
  /** `atlassian` for people, `app` for the relay's service account. */
  accountType: 'atlassian' | 'app';
  /** Project key -> the project permissions held there (BROWSE_PROJECTS, ADD_COMMENTS, …). */
  permissions: Record<string, string[]>;
}

export interface FakeJiraComment {
  id: string;
  issueKey: string;
  authorId: string;
  /** ADF as posted (the relay's), or wiki text (a person's, as webhooks carry it). */
  body: unknown;
  properties: { key: string; value: unknown }[];
  created: number;
  /** Every body it had before, oldest first. */
  edits: unknown[];
}

export interface FakeJiraIssue {
  id: string;
  key: string;
  project: string;
  summary: string;
  description: string;
  labels: string[];
  status: string;
  assigneeId?: string;
}

export interface FakeJiraTransition {
  id: string;
  name: string;
  to: string;
  category: 'new' | 'indeterminate' | 'done';
}

/** The fake workflow: To Do -> In Progress -> Done, and back. */
export const WORKFLOW: Record<string, FakeJiraTransition[]> = {
  'To Do': [
    { id: '21', name: 'Start work', to: 'In Progress', category: 'indeterminate' },
    { id: '31', name: 'Done', to: 'Done', category: 'done' },
  ],
  'In Progress': [
    { id: '11', name: 'Stop work', to: 'To Do', category: 'new' },
    { id: '31', name: 'Done', to: 'Done', category: 'done' },
  ],
  Done: [{ id: '41', name: 'Reopen', to: 'To Do', category: 'new' }],
};

export const RELAY_ACCOUNT_ID = '712020:5f1e6e3a-relay-0001';
export const PEOPLE = {
  /** May browse and comment in PROJ, and administers it. */
  alice: '557058:0a1b2c3d-alice-0001',
  /** May browse and comment in PROJ. */
  bob: '557058:0a1b2c3d-bobby-0002',
  /** May browse PROJ but not comment. */
  mallory: '557058:0a1b2c3d-mallo-0003',
} as const;

export function createJiraModel(credentials: { email: string; apiToken: string }) {
  const users = new Map<string, FakeJiraUser>();
  const issues = new Map<string, FakeJiraIssue>();
  const comments: FakeJiraComment[] = [];
  let nextComment = 10_000;
  let nextIssue = 10_000;

  const user = (
    accountId: string,
    displayName: string,
    permissions: Record<string, string[]>,
    accountType: FakeJiraUser['accountType'] = 'atlassian',
  ) => users.set(accountId, { accountId, displayName, accountType, permissions });
  const WORK = ['BROWSE_PROJECTS', 'ADD_COMMENTS'];
  user(RELAY_ACCOUNT_ID, 'agent-relay', { PROJ: WORK, OPS: WORK }, 'app');
  user(PEOPLE.alice, 'Alice Admin', { PROJ: [...WORK, 'ADMINISTER_PROJECTS'], OPS: WORK });
  user(PEOPLE.bob, 'Bob Builder', { PROJ: WORK });
  user(PEOPLE.mallory, 'Mallory', { PROJ: ['BROWSE_PROJECTS'] });

  return {
    credentials,
    users,
    issues,
    comments,
    /** An issue in a project (its key numbered in order). */
    addIssue(project: string, fields: Partial<Omit<FakeJiraIssue, 'id' | 'key' | 'project'>> = {}) {
      const id = String(nextIssue++);
      const key = `${project}-${[...issues.values()].filter((i) => i.project === project).length + 1}`;
      const issue: FakeJiraIssue = {
        id,
        key,
        project,
        summary: fields.summary ?? `Issue ${key}`,
        description: fields.description ?? '',
        labels: fields.labels ?? [],
        status: fields.status ?? 'To Do',
        ...(fields.assigneeId === undefined ? {} : { assigneeId: fields.assigneeId }),
      };
      issues.set(key, issue);
      return issue;
    },
    addComment(
      issueKey: string,
      authorId: string,
      body: unknown,
      properties: FakeJiraComment['properties'] = [],
    ) {
      const comment: FakeJiraComment = {
        id: String(nextComment++),
        issueKey,
        authorId,
        body,
        properties,
        created: Date.now(),
        edits: [],
      };
      comments.push(comment);
      return comment;
    },
    commentsOf(issueKey: string): FakeJiraComment[] {
      return comments.filter((c) => c.issueKey === issueKey);
    },
    /** The relay's comments on an issue, oldest first. */
    relayComments(issueKey: string): FakeJiraComment[] {
      return comments.filter((c) => c.issueKey === issueKey && c.authorId === RELAY_ACCOUNT_ID);
    },
  };
}

export type JiraModel = ReturnType<typeof createJiraModel>;
