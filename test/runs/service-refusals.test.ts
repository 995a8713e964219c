/**
 * The service refuses a request with 403 and one of its error codes, or 401 because the
 * requester has not authorized an external provider: the person reads what happened and what
 * to do (not "check the API key"), operators find the code in the log, and the personal
 * authorization link reaches the requester alone (never a public message, never the log).
 */
import { describe, expect, it } from 'vitest';
import { appMentionEvent, eventCallback } from '../helpers/slack.js';
import { relayPerTest } from '../helpers/relay.js';
import type { Relay } from '../helpers/relay.js';
import { waitUntil } from '../helpers/wait-until.js';
import { validGitHubBody } from '../reliability/hostile-github.js';

const CREATE = 'POST /agent/runs';
const AUTH_URL = 'https://auth.example.test/connect/linear?state=personal-7f3a';

const start = relayPerTest();

/** Every version of every public Slack message (text and blocks), as JSON text. */
function publicSlack(r: Relay): string {
  return JSON.stringify(r.slack.messages.map((m) => [m.text, m.blocks, m.history]));
}

function ephemeralsFor(r: Relay, user: string): string {
  return JSON.stringify(r.slack.ephemerals.filter((m) => m.onlyFor === user));
}

function githubBodies(r: Relay): string {
  return JSON.stringify([...r.github.comments.values()].map((c) => [c.firstBody, c.edits]));
}

async function mention(r: Relay, ts: string): Promise<void> {
  const body = eventCallback(appMentionEvent({ ts, text: `<@UBOT0001> fix the flaky test` }));
  expect((await r.postSlack(body)).status).toBe(200);
}

/** A relay whose next create the service refuses: Linear needs authorizing, at AUTH_URL. */
async function startRefusingForLinear(): Promise<Relay> {
  const r = await start();
  r.emulator.faults.failNext(1, 401, {
    route: CREATE,
    errorCode: 'external_authentication_required',
    provider: 'linear',
    authUrl: AUTH_URL,
  });
  return r;
}

/** The log line of the failed trigger. */
function failureLine(r: Relay): Record<string, unknown> | undefined {
  return r.logs.lines().find((l) => l.msg === 'trigger failed');
}

describe('403 with an error code: the person reads what happened and what to do', () => {
  it.each([
    ['insufficient_credits', /run out of Agent Run Service credits/],
    ['budget_exceeded', /spending limit on the Agent Run Service has been reached/],
    ['content_policy_violation', /goes against its content policy/],
    ['feature_not_available', /feature that the team’s Agent Run Service plan does not include/],
    ['integration_disabled', /integration this request needs is turned off/],
    ['not_authorized', /no access to the environment or MCP server/],
  ] as const)(
    '%s',
    async (errorCode, expected) => {
      const r = await start();
      r.emulator.faults.failNext(1, 403, { route: CREATE, errorCode });
      await mention(r, '1700003001.000100');
      await waitUntil(() => expected.test(publicSlack(r)), { timeoutMs: 10_000 });
      expect(publicSlack(r)).not.toMatch(/API key/);
      expect(r.emulator.runs.count()).toBe(0);
      const line = failureLine(r);
      expect(line?.serviceCode).toBe(errorCode);
      // An administrator must act on all but a prompt the policy refused.
      expect(line?.level).toBe(errorCode === 'content_policy_violation' ? 30 : 50);
    },
    20_000,
  );

  it('a follow-up refused for the budget: the asker reads why, privately', async () => {
    const r = await start();
    const root = '1700003004.000100';
    await mention(r, root);
    const runId = await waitUntil(() => r.emulator.runs.all()[0]?.run_id, { timeoutMs: 10_000 });
    await waitUntil(() => r.emulator.runs.get(runId)?.state === 'SUCCEEDED', { timeoutMs: 10_000 });
    r.emulator.faults.failNext(1, 403, {
      route: 'POST /agent/runs/:id/followups',
      errorCode: 'budget_exceeded',
    });
    await r.replyInSlack(root, 'one more thing');
    await waitUntil(() => /spending limit/.test(ephemeralsFor(r, 'UALICE01')), {
      timeoutMs: 10_000,
    });
    expect(ephemeralsFor(r, 'UALICE01')).not.toMatch(/API key/);
    expect(r.emulator.followups).toHaveLength(0);
    expect(failureLine(r)?.serviceCode).toBe('budget_exceeded');
  }, 20_000);

  it('a 401 without a more precise code still says to check the key', async () => {
    const r = await start();
    r.emulator.faults.failNext(1, 401, { route: CREATE });
    await mention(r, '1700003002.000100');
    await waitUntil(() => /check AGENT_API_KEY/.test(publicSlack(r)), { timeoutMs: 10_000 });
  }, 20_000);
});

describe('401 external_authentication_required: the link goes to the requester alone', () => {
  it('Slack: the thread says what to do; the link arrives privately to the requester', async () => {
    const r = await startRefusingForLinear();
    await mention(r, '1700003003.000100');
    await waitUntil(() => ephemeralsFor(r, 'UALICE01').includes(AUTH_URL), { timeoutMs: 10_000 });
    await waitUntil(() => /authorize Linear/.test(publicSlack(r)), { timeoutMs: 10_000 });
    expect(publicSlack(r)).toMatch(/sent to you privately/);
    expect(publicSlack(r)).not.toContain('auth.example.test');
    expect(publicSlack(r)).not.toMatch(/API key/);
    expect(r.slack.ephemerals.filter((m) => m.onlyFor !== 'UALICE01')).toEqual([]);
    // Operators see the code and the provider, never the personal link.
    const line = failureLine(r);
    expect(line).toMatchObject({
      serviceCode: 'external_authentication_required',
      provider: 'linear',
    });
    expect(r.logs.text()).not.toContain('auth.example.test');
  }, 20_000);

  it('GitHub: the comment says the link was not posted publicly, and never holds it', async () => {
    const r = await startRefusingForLinear();
    const res = await r.postGitHub(validGitHubBody(), {
      event: 'issue_comment',
      deliveryId: 'refusal-gh-1',
    });
    expect(res.status).toBe(202);
    await waitUntil(() => /authorize Linear/.test(githubBodies(r)), { timeoutMs: 10_000 });
    expect(githubBodies(r)).toMatch(/not posted in this public conversation/);
    expect(githubBodies(r)).not.toContain('auth.example.test');
    expect(r.logs.text()).not.toContain('auth.example.test');
  }, 20_000);
});
