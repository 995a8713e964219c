/**
 * What the fake Linear knows: workspaces (each with its app token, app user, one team and its
 * workflow states, and its admins), issues, agent sessions, and what it recorded (activities,
 * requests). Two workspaces by default, so tests can keep them apart.
 */

export interface FakeLinearState {
  id: string;
  name: string;
  type: 'triage' | 'backlog' | 'unstarted' | 'started' | 'completed' | 'canceled';
  position: number;
}

export interface FakeLinearWorkspace {
  organizationId: string;
  token: string;
  /** The app's user in this workspace (what `viewer` answers). */
  appUserId: string;
  team: { id: string; key: string; states: FakeLinearState[] };
  /** People who are admins of this workspace (what `user { admin }` answers true for). */
  admins: Set<string>;
}

export interface FakeLinearIssue {
  id: string;
  identifier: string;
  title: string;
  description: string;
  url: string;
  organizationId: string;
  teamId: string;
  stateId: string;
  delegateId?: string;
}

export interface FakeLinearActivity {
  id: string;
  sessionId: string;
  content: { type: string; body?: string; [key: string]: unknown };
  ephemeral: boolean;
  /** Arrival, real time (ms, `performance.now()`). */
  at: number;
}

export interface FakeLinearSession {
  id: string;
  organizationId: string;
  issueId: string;
  creatorId: string;
  externalUrls: { label: string; url: string }[];
  /** When the `created` webhook was sent (performance.now()). */
  createdAt: number;
}

export interface FakeLinearRequest {
  operation: string;
  variables: Record<string, unknown>;
  authorization?: string;
  at: number;
}

const STATES = (prefix: string): FakeLinearState[] => [
  { id: `${prefix}-triage`, name: 'Triage', type: 'triage', position: 0 },
  { id: `${prefix}-todo`, name: 'Todo', type: 'unstarted', position: 1 },
  { id: `${prefix}-review`, name: 'In Review', type: 'started', position: 3 },
  { id: `${prefix}-progress`, name: 'In Progress', type: 'started', position: 2 },
  { id: `${prefix}-done`, name: 'Done', type: 'completed', position: 4 },
  { id: `${prefix}-canceled`, name: 'Canceled', type: 'canceled', position: 5 },
];

/**
 * The token a person (Ada) of the workspace gets from an install without `actor=app`: Linear
 * answers `viewer` with her, a user who is not an app (`app: false`).
 */
export function memberTokenOf(ws: FakeLinearWorkspace): string {
  return `${ws.token}_member`;
}

export function defaultLinearWorkspaces(): FakeLinearWorkspace[] {
  return [
    {
      organizationId: 'org-acme',
      token: 'lin_oauth_dummy_acme',
      appUserId: 'app-user-acme',
      team: { id: 'team-eng', key: 'ENG', states: STATES('eng') },
      admins: new Set(['user-ada']),
    },
    {
      organizationId: 'org-globex',
      token: 'lin_oauth_dummy_globex',
      appUserId: 'app-user-globex',
      team: { id: 'team-ops', key: 'OPS', states: STATES('ops') },
      admins: new Set(['user-ada']),
    },
  ];
}
