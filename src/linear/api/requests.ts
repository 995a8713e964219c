/**
 * The few GraphQL operations the relay uses: write an activity, point a session at its run,
 * and move a delegated issue to its team's first started state. The documents are ours (each
 * selects only what the relay reads); their inputs are the SDK's types.
 */
import type { LinearDocument } from '@linear/sdk';
import type { LinearGraphql } from './graphql-client.js';
import type { Activity } from './activity-content.js';

const CREATE_ACTIVITY = `mutation AgentActivityCreate($input: AgentActivityCreateInput!) {
  agentActivityCreate(input: $input) { success agentActivity { id } }
}`;

const UPDATE_SESSION = `mutation AgentSessionUpdate($id: String!, $input: AgentSessionUpdateInput!) {
  agentSessionUpdate(id: $id, input: $input) { success }
}`;

const SESSION_ISSUE = `query AgentSessionIssue($id: String!) {
  viewer { id }
  agentSession(id: $id) {
    id
    issue { id delegate { id } state { id type } team { id } }
  }
}`;

const STARTED_STATES = `query TeamStartedStates($teamId: String!) {
  team(id: $teamId) {
    states(filter: { type: { eq: "started" } }) { nodes { id name position } }
  }
}`;

const UPDATE_ISSUE = `mutation IssueUpdate($id: String!, $input: IssueUpdateInput!) {
  issueUpdate(id: $id, input: $input) { success }
}`;

export async function createActivity(
  gql: LinearGraphql,
  sessionId: string,
  activity: Activity,
  id?: string,
): Promise<string> {
  const input: LinearDocument.AgentActivityCreateInput = {
    agentSessionId: sessionId,
    content: activity.content,
  };
  if (id) input.id = id;
  if (activity.ephemeral) input.ephemeral = true;
  const data = await gql<{ agentActivityCreate?: { agentActivity?: { id?: string } } }>(
    CREATE_ACTIVITY,
    { input },
  );
  return data.agentActivityCreate?.agentActivity?.id ?? id ?? '';
}

export async function setSessionLink(
  gql: LinearGraphql,
  sessionId: string,
  url: string,
): Promise<void> {
  const input: LinearDocument.AgentSessionUpdateInput = {
    externalUrls: [{ label: 'Cloud agent session', url }],
  };
  await gql(UPDATE_SESSION, { id: sessionId, input });
}

interface SessionIssue {
  viewer?: { id?: string };
  agentSession?: {
    issue?: {
      id: string;
      delegate?: { id?: string } | null;
      state?: { id?: string; type?: string } | null;
      team?: { id?: string } | null;
    } | null;
  } | null;
}

/**
 * When the session's issue is delegated to the app and not yet started, completed or
 * cancelled: move it to the team's started state with the lowest position. Never closes an
 * issue. Answers whether it moved it.
 */
export async function startDelegatedIssue(gql: LinearGraphql, sessionId: string): Promise<boolean> {
  const found = await gql<SessionIssue>(SESSION_ISSUE, { id: sessionId });
  const issue = found.agentSession?.issue;
  const me = found.viewer?.id;
  if (!issue || !me || issue.delegate?.id !== me) return false;
  const type = issue.state?.type ?? '';
  if (['started', 'completed', 'canceled'].includes(type)) return false;
  const teamId = issue.team?.id;
  if (!teamId) return false;
  const team = await gql<{ team?: { states?: { nodes?: { id: string; position: number }[] } } }>(
    STARTED_STATES,
    { teamId },
  );
  const first = [...(team.team?.states?.nodes ?? [])].sort((a, b) => a.position - b.position)[0];
  if (!first) return false;
  const input: LinearDocument.IssueUpdateInput = { stateId: first.id };
  await gql(UPDATE_ISSUE, { id: issue.id, input });
  return true;
}

const FIND_ACTIVITY = `query AgentActivity($id: String!) { agentActivity(id: $id) { id } }`;

/** Whether an activity with this id exists already (an earlier attempt that got through). */
export async function activityExists(gql: LinearGraphql, id: string): Promise<boolean> {
  try {
    const found = await gql<{ agentActivity?: { id?: string } | null }>(FIND_ACTIVITY, { id });
    return Boolean(found.agentActivity?.id);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'not_found') return false;
    throw err;
  }
}

const USER_ADMIN = `query UserAdmin($id: String!) { user(id: $id) { id admin } }`;

/** Whether a person is an admin of the Linear workspace the client's token belongs to. */
export async function isWorkspaceAdmin(gql: LinearGraphql, userId: string): Promise<boolean> {
  const data = await gql<{ user?: { admin?: boolean } | null }>(USER_ADMIN, { id: userId });
  return data.user?.admin === true;
}
