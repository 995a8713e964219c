/**
 * The fake Jira holds every request to Atlassian's OpenAPI description of the Jira Cloud
 * platform REST API (v3), trimmed to the operations the relay calls
 * (`src/fakes/schemas/jira-platform.v3.trimmed.json`): one the description refuses answers 400
 * with `errorMessages`, as Jira answers a bad request, and is recorded as a refusal, which fails
 * a test that leaves one (`test/setup/published-fakes.ts`).
 */
import { describe, expect, it } from 'vitest';
import { FAKE_JIRA_EMAIL, FAKE_JIRA_TOKEN } from '../../src/fakes/jira-rest-api.js';
import { jiraDescription, jiraRequestProblems } from '../../src/fakes/jira-published.js';
import { unknownKeywords } from '../../src/fakes/openapi-check.js';
import { takeRefusals } from '../../src/fakes/published.js';
import { fakeJiraPerTest } from '../helpers/jira.js';

const jira = fakeJiraPerTest();

const auth = `Basic ${Buffer.from(`${FAKE_JIRA_EMAIL}:${FAKE_JIRA_TOKEN}`).toString('base64')}`;
async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${jira.url}${path}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as unknown };
}

const adf = (text: string) => ({
  type: 'doc',
  version: 1,
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

describe("the fake Jira and Atlassian's REST description", () => {
  it('has the vendored description, and the check knows every keyword it uses', () => {
    const doc = jiraDescription();
    expect(Object.keys(doc?.paths ?? {})).toContain('/rest/api/3/issue/{issueIdOrKey}/comment');
    expect(unknownKeywords(doc!)).toEqual([]);
  });

  it("takes the relay's kind of requests", async () => {
    const issue = jira.model.addIssue('PROJ').key;
    const made = await call('POST', `/rest/api/3/issue/${issue}/comment`, {
      body: adf('Starting…'),
      properties: [{ key: 'agent-relay', value: { run: 'r1' } }],
    });
    expect(made.status).toBe(201);
    const listed = await call(
      'GET',
      `/rest/api/3/issue/${issue}/comment?orderBy=-created&maxResults=100`,
    );
    expect(listed.status).toBe(200);
    expect(takeRefusals()).toEqual([]);
  });

  it('refuses a field the server sets, a parameter it does not list, a value of the wrong type', async () => {
    const issue = jira.model.addIssue('PROJ').key;
    const path = `/rest/api/3/issue/${issue}/comment`;
    const authored = await call('POST', path, { body: adf('x'), author: { accountId: 'a' } });
    expect(authored).toEqual({
      status: 400,
      body: { errorMessages: ['body.author: read-only, set by the server'], errors: {} },
    });
    expect((await call('GET', `${path}?maxResults=many`)).status).toBe(400);
    expect((await call('GET', `${path}?sort=created`)).status).toBe(400);
    expect(
      (await call('POST', `/rest/api/3/issue/${issue}/transitions`, { transition: 'In Progress' }))
        .status,
    ).toBe(400);
    expect(takeRefusals().map((r) => [r.request, r.problems])).toEqual([
      [
        'POST /rest/api/3/issue/{issueIdOrKey}/comment',
        ['body.author: read-only, set by the server'],
      ],
      ['GET /rest/api/3/issue/{issueIdOrKey}/comment', ['?maxResults: many is not an integer']],
      ['GET /rest/api/3/issue/{issueIdOrKey}/comment', ['?sort: not a parameter of the operation']],
      [
        'POST /rest/api/3/issue/{issueIdOrKey}/transitions',
        ['body.transition: a string, where the description has object'],
      ],
    ]);
  });

  it("describes an OAuth app's dynamic webhooks, and the same API through Atlassian's gateway", () => {
    const register = (body: unknown) =>
      jiraRequestProblems({
        method: 'POST',
        path: '/ex/jira/cloud-1/rest/api/3/webhook',
        query: new URLSearchParams(),
        body,
      });
    const webhooks = [{ events: ['comment_created'], jqlFilter: 'project = PROJ' }];
    expect(register({ url: 'https://relay.example.com/jira/webhooks', webhooks })).toBeUndefined();
    expect(register({ webhooks })?.problems).toEqual(['body.url: required']);
    // REST v2 is not this description's: not checked here.
    const v2 = {
      method: 'GET',
      path: '/rest/api/2/serverInfo',
      query: new URLSearchParams(),
      body: undefined,
    };
    expect(jiraRequestProblems(v2)).toBeUndefined();
  });

  it('refuses a path the description does not have', async () => {
    expect((await call('GET', '/rest/api/3/issue/ENG-1/worklog')).status).toBe(400);
    expect(takeRefusals()[0]!.problems).toEqual(['not an operation of the description']);
  });
});
