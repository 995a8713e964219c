/**
 * The emulator's switches for real-world answers of the published service: a 403 or 401
 * with its error code (and the provider and link of `external_authentication_required`),
 * a setup failure with its debug window, and orchestration children that wait for approval
 * under a running parent, found with the ancestor and state filters. Each answer is checked
 * against the published shapes (test/contract/published-schemas).
 */
import { describe, expect, it } from 'vitest';
import { createApi } from './helpers.js';
import { emulatorPerTest } from './helpers.js';
import { ERROR_TYPE_BASE } from '../contract/published-schemas/error.js';
import { PublishedError, publishedCodeOf } from '../contract/published-schemas/problem-error.js';
import { PublishedRunDebugFields } from '../contract/published-schemas/run-debug-window.js';

const t = emulatorPerTest();
const admin = () => createApi(`${t.emu.url}/_emulator`, t.emu.apiKey);

describe('refusals with their error codes', () => {
  it.each([
    'insufficient_credits',
    'budget_exceeded',
    'content_policy_violation',
    'feature_not_available',
    'integration_disabled',
    'not_authorized',
  ] as const)('403 %s: the published problem, under the published type host', async (code) => {
    const set = await admin()('POST', '/faults', {
      failNext: 1,
      status: 403,
      errorCode: code,
      route: 'POST /agent/runs',
    });
    expect(set.status).toBe(200);
    const res = await t.api('POST', '/agent/runs', { prompt: 'x' });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = PublishedError.parse(res.body);
    expect(problem.type).toBe(ERROR_TYPE_BASE + code);
    expect(publishedCodeOf(problem.type)).toBe(code);
    expect(problem.retryable).toBe(false);
    expect(t.emu.runs.count()).toBe(0);
  });

  it('401 external_authentication_required names the provider and the link', async () => {
    t.emu.faults.failNext(1, 401, {
      errorCode: 'external_authentication_required',
      provider: 'linear',
      authUrl: 'https://auth.example.test/linear',
    });
    const res = await t.api('POST', '/agent/runs', { prompt: 'x' });
    expect(res.status).toBe(401);
    const problem = PublishedError.parse(res.body);
    expect(publishedCodeOf(problem.type)).toBe('external_authentication_required');
    expect(problem).toMatchObject({
      provider: 'linear',
      auth_url: 'https://auth.example.test/linear',
    });
  });

  it('every ordinary problem uses the published type host too', async () => {
    const res = await t.api('GET', '/agent/runs/nope');
    expect(res.status).toBe(404);
    expect(publishedCodeOf(PublishedError.parse(res.body).type)).toBe('resource_not_found');
  });

  it('rejects an error code outside the published refusals', async () => {
    const res = await admin()('POST', '/faults', { failNext: 1, status: 403, errorCode: 'nope' });
    expect(res.status).toBe(400);
    expect(() => t.emu.faults.failNext(1, 403, { errorCode: 'nope' })).toThrow(RangeError);
  });
});

describe('a setup failure keeps its session open for debugging', () => {
  it('a follow-up in the window goes to the debugging session; the run stays FAILED', async () => {
    const run = (await t.api('POST', '/agent/runs', { prompt: 'build it' })).body;
    const failed = await admin()('POST', `/runs/${run.run_id}/setup-failure`, {
      debug_window_seconds: 600,
    });
    expect(failed.status).toBe(200);
    const item = PublishedRunDebugFields.parse(
      (await t.api('GET', `/agent/runs/${run.run_id}`)).body,
    );
    expect(item.state).toBe('FAILED');
    expect(item.debug_agent_available).toBe(true);
    expect(item.status_message?.error_code).toBe('environment_setup_failed');
    const until = Date.parse(item.status_message?.session_debug_until ?? '');
    expect(until).toBe(t.clock.now() + 600_000);

    t.clock.advance(60_000);
    const sent = await t.api('POST', `/agent/runs/${run.run_id}/followups`, { message: 'why?' });
    expect(sent.status).toBe(200);
    expect(sent.body.outcome).toBe('live_session');
    const after = PublishedRunDebugFields.parse(
      (await t.api('GET', `/agent/runs/${run.run_id}`)).body,
    );
    expect(after.state).toBe('FAILED');
    expect(after.status_message).toMatchObject({
      message: item.status_message?.message,
      error_code: 'environment_setup_failed',
      debug_agent_active: true,
    });
    // Activity pushes the window's end out.
    expect(Date.parse(after.status_message?.session_debug_until ?? '')).toBe(
      t.clock.now() + 600_000,
    );
  });

  it('after the window closes, a follow-up continues the run as usual', async () => {
    const run = (await t.api('POST', '/agent/runs', { prompt: 'build it' })).body;
    expect(t.emu.failSetup(run.run_id, 1_000)?.debug_agent_available).toBe(true);
    t.clock.advance(1_001);
    const closed = PublishedRunDebugFields.parse(
      (await t.api('GET', `/agent/runs/${run.run_id}`)).body,
    );
    expect(closed.debug_agent_available).toBeUndefined();
    expect(closed.status_message?.session_debug_until).toBeUndefined();
    const sent = await t.api('POST', `/agent/runs/${run.run_id}/followups`, { message: 'again' });
    expect(sent.body.outcome).toBe('handoff_execution');
    expect((await t.api('GET', `/agent/runs/${run.run_id}`)).body.state).toBe('QUEUED');
  });
});

describe('orchestration children waiting for approval under a running parent', () => {
  it('a BLOCKED child inherits the stamp and is found by ancestor and state filters', async () => {
    const parent = (
      await t.api('POST', '/agent/runs', {
        prompt: 'orchestrate',
        metadata: { relay_request: 'r-1' },
      })
    ).body;
    t.emu.setState(parent.run_id, 'INPROGRESS');
    const child = await admin()('POST', `/runs/${parent.run_id}/children`, {
      prompt: 'deploy the fix',
      state: 'BLOCKED',
    });
    expect(child.status).toBe(200);
    const grandchild = await admin()('POST', `/runs/${child.body.run_id}/children`, {
      state: 'INPROGRESS',
    });
    await t.api('POST', '/agent/runs', { prompt: 'unrelated' });
    const fields = PublishedRunDebugFields.parse(child.body);
    expect(fields).toMatchObject({
      state: 'BLOCKED',
      parent_run_id: parent.run_id,
      root_run_id: parent.run_id,
    });
    expect(child.body.metadata).toEqual({ relay_request: 'r-1' });
    const ids = async (query: string) =>
      ((await t.api('GET', `/agent/runs?${query}`)).body.runs as { run_id: string }[]).map(
        (r) => r.run_id,
      );
    expect(await ids(`ancestor_run_id=${parent.run_id}&state=BLOCKED`)).toEqual([
      child.body.run_id,
    ]);
    expect((await ids(`ancestor_run_id=${parent.run_id}`)).sort()).toEqual(
      [child.body.run_id, grandchild.body.run_id].sort(),
    );
    expect((await t.api('GET', `/agent/runs/${parent.run_id}`)).body.state).toBe('INPROGRESS');
  });
});
