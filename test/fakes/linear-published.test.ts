/**
 * The fake Linear holds every operation to Linear's published GraphQL schema
 * (`src/fakes/schemas/linear.graphql`): the relay's own operations pass through the relay's
 * own client, and one the schema refuses is answered as Linear answers it (400,
 * GRAPHQL_VALIDATION_FAILED, read by the SDK as a `graphql error`) and recorded as a refusal,
 * which fails any test that leaves one (`test/setup/published-fakes.ts`). Activity content is
 * held to Linear's documented payload
 * (https://linear.app/developers/agent-interaction#activity-content-payload).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLinear, type FakeLinear } from '../../src/fakes/linear-graphql-api.js';
import { linearSchema } from '../../src/fakes/linear-schema.js';
import { takeRefusals } from '../../src/fakes/published.js';
import {
  activityExists,
  createActivity,
  isWorkspaceAdmin,
  setSessionLink,
  startDelegatedIssue,
} from '../../src/linear/api/requests.js';
import { createLinearGraphql } from '../../src/linear/api/graphql-client.js';
import { whoseToken } from '../../src/linear/api/oauth.js';
import { DeliveryError } from '../../src/core/ports/index.js';

let linear: FakeLinear;
beforeEach(async () => {
  linear = await startFakeLinear();
  linear.setWebhook('http://127.0.0.1:9/unused', 'secret-dummy');
});
afterEach(() => linear.close());

async function post(query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(linear.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${linear.workspaces[0]!.token}`,
    },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("the fake Linear and Linear's published schema", () => {
  it('has the vendored schema loaded (a clone always checks)', () => {
    const schema = linearSchema();
    expect(schema?.getMutationType()?.getFields().agentActivityCreate).toBeDefined();
  });

  it("answers every operation the relay sends, through the relay's client, with no refusal", async () => {
    const gql = createLinearGraphql({
      apiUrl: linear.url,
      token: linear.workspaces[0]!.token,
    });
    const session = await openQuietly();
    const id = await createActivity(gql, session, { content: { type: 'thought', body: 'Hm' } });
    expect(await activityExists(gql, id)).toBe(true);
    await setSessionLink(gql, session, 'https://agents.example.com/runs/1');
    expect(await startDelegatedIssue(gql, session)).toBe(true);
    expect(await isWorkspaceAdmin(gql, 'user-ada')).toBe(true);
    expect(await isWorkspaceAdmin(gql, 'user-nobody')).toBe(false);
    const who = await whoseToken(linear.url, linear.workspaces[0]!.token);
    expect(who.app).toBe(true);
    expect(takeRefusals()).toEqual([]);
  });

  it('refuses a field the schema does not have, as Linear does, and records it', async () => {
    const { status, body } = await post('query Viewer { viewer { id nickname } }');
    expect(status).toBe(400);
    const [error] = body.errors as { message: string; extensions: Record<string, unknown> }[];
    expect(error!.message).toMatch(/^Cannot query field "nickname" on type "User"/);
    expect(error!.extensions).toMatchObject({
      code: 'GRAPHQL_VALIDATION_FAILED',
      type: 'graphql error',
    });
    const [refusal, ...more] = takeRefusals();
    expect(more).toEqual([]);
    expect(refusal).toMatchObject({ platform: 'linear', request: 'Viewer' });
    expect(refusal!.problems[0]).toContain('nickname');
  });

  it('refuses variables that do not fit their input type (a required input field missing)', async () => {
    const { status } = await post(
      `mutation AgentActivityCreate($input: AgentActivityCreateInput!) {
        agentActivityCreate(input: $input) { success }
      }`,
      { input: { content: { type: 'thought', body: 'x' } } },
    );
    expect(status).toBe(400);
    const problems = takeRefusals().flatMap((r) => r.problems);
    expect(problems.join('\n')).toMatch(/agentSessionId.*required|required.*agentSessionId/);
  });

  it("the relay's client reads a refusal as a permanent error, not one to retry", async () => {
    const gql = createLinearGraphql({
      apiUrl: linear.url,
      token: linear.workspaces[0]!.token,
    });
    const err = await gql('query Viewer { viewer { idd } }', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryError);
    expect(err).toMatchObject({ code: 'invalid', retryable: false });
    expect(takeRefusals()).toHaveLength(1);
  });

  it("refuses activity content Linear's documentation does not describe", async () => {
    const session = await openQuietly();
    const write = (content: Record<string, unknown>) =>
      post(
        `mutation AgentActivityCreate($input: AgentActivityCreateInput!) {
          agentActivityCreate(input: $input) { success agentActivity { id } }
        }`,
        { input: { agentSessionId: session, content } },
      );
    expect((await write({ type: 'action', action: 'Read', parameter: 'a.ts' })).body.data).toEqual({
      agentActivityCreate: { success: true, agentActivity: { id: expect.any(String) } },
    });
    for (const content of [
      { type: 'prompt', body: 'an agent does not write prompts' },
      { type: 'thinking', body: 'no such type' },
      { type: 'response' },
      { type: 'action', action: 'Read' },
    ]) {
      const { body } = await write(content);
      expect(body.errors, JSON.stringify(content)).toBeDefined();
    }
    expect(takeRefusals()).toHaveLength(4);
  });
});

/** A session to write into; the webhook that opens it goes nowhere (no relay here). */
async function openQuietly(): Promise<string> {
  const opened = await linear.openSession({}).catch(() => undefined);
  const session = [...linear.sessions.values()].at(-1);
  if (!session) throw new Error(`no session opened (${String(opened)})`);
  return session.id;
}
