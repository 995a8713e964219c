/**
 * The contract on the wire: the relay's real agent client talks to the emulator through a
 * recording loopback proxy, through every call the relay makes; each request it sent and each
 * answer it got is then checked against our schemas of the published description
 * (test/contract/published-schemas). Both sides must conform: an off-spec request is a
 * client bug, an off-spec answer an emulator bug that would hide one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createAgentClient, type AgentClient } from '../../src/agent/index.js';
import type {
  CreateRunRequest,
  DispatchRequest,
  FollowupRequest,
  ListRunsQuery,
} from '../../src/core/run.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { ticketRefOf } from '../../src/runs/use-cases/dispatch-factory.js';
import { createRequest } from '../../src/runs/use-cases/start-run.js';
import { startRecordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import type { PUBLISHED } from './published-schemas/index.js';
import { checkExchange, findEndpoint, PUBLISHED_ENDPOINTS } from './published-schemas/wire.js';

const TIMINGS = { queuedMs: 100, pendingMs: 100, claimedMs: 100, runMs: 1000, slowRunMs: 10_000 };
const TO_END = 1300;

let emu: Emulator;
let proxy: RecordingProxy;
let client: AgentClient;
let now: number;
const clock = { now: () => now };

beforeEach(async () => {
  now = Date.parse('2025-03-01T12:00:00.000Z');
  emu = await startEmulator({ clock, tickMs: 60_000, timings: TIMINGS });
  proxy = await startRecordingProxy(emu.url, '/api/v1');
  client = createAgentClient({
    baseUrl: proxy.baseUrl,
    apiKey: emu.apiKey,
    maxRetries: 2,
    timeoutMs: 5000,
    clock,
    random: () => 0,
    sleep: async () => undefined,
  });
});
afterEach(async () => {
  await proxy.close();
  await emu.close();
});

/**
 * Every issue of every exchange recorded so far: the published shapes, the bearer key on
 * every request (the published security scheme) and a JSON content type on every body.
 */
const wireIssues = () =>
  proxy.exchanges.flatMap((x) => [
    ...checkExchange(x),
    ...(x.headers.authorization === `Bearer ${emu.apiKey}` || x.status === 401
      ? []
      : [`${x.method} ${x.path}: no bearer key`]),
    ...(x.body === undefined || String(x.headers['content-type']).startsWith('application/json')
      ? []
      : [`${x.method} ${x.path}: a body that is not declared JSON`]),
  ]);
/** The published endpoints the recorded exchanges reached, `METHOD /template`. */
const endpointsSeen = () =>
  [
    ...new Set(
      proxy.exchanges.map((x) => {
        const e = findEndpoint(x.method, x.path);
        return e ? `${e.method} ${e.path}` : `${x.method} ${x.path} (unpublished)`;
      }),
    ),
  ].sort();

describe('every call the relay makes conforms, request and answer', () => {
  it('runs: create as the relay builds it, read, list with every filter it uses, follow up, cancel', async () => {
    const request = createRequest({
      prompt: 'Fix the flaky login test',
      title: 'Flaky login',
      options: { model: 'm-1', env: 'env-a', name: 'relay', mode: 'plan' },
      metadata: { relay_request: 'req-1', relay_platform: 'slack', relay_thread: 'C1/171.1' },
    });
    const { run_id } = await client.createRun(request);
    await client.createRun({ config: { skill_spec: 'acme/tools:release' } });
    await client.getRun(run_id);
    now += TO_END;
    await client.getRun(run_id); // waiting on its plan: a PLAN artifact, BLOCKED
    await client.listRuns({
      limit: 50,
      state: ['QUEUED', 'INPROGRESS', 'BLOCKED'],
      sort_by: 'updated_at',
      sort_order: 'desc',
      updated_after: new Date(now - 60_000).toISOString(),
      metadata: { relay_platform: 'slack' },
    });
    await client.listRuns({
      limit: 10,
      name: 'relay',
      model_id: 'm-1',
      creator: 'sa-api-key',
      executor: 'sa-api-key',
      source: 'API',
      created_after: new Date(now - 3_600_000).toISOString(),
      created_before: new Date(now).toISOString(),
      environment_id: 'env-a',
      skill_spec: 'acme/tools:release',
      ancestor_run_id: run_id,
      artifact_type: 'PULL_REQUEST',
      q: 'login',
      sort_by: 'agent',
    });
    const pages: string[] = [];
    for await (const run of client.runs.list({ limit: 1, sort_by: 'created_at' })) {
      pages.push(run.run_id);
    }
    expect(pages).toHaveLength(2);
    expect(
      await client.findRunByRequest('req-1', new Date(now - 60_000).toISOString()),
    ).toBeDefined();
    await client.sendFollowup(run_id, { message: 'and the docs', mode: 'plan' });
    const { run_id: other } = await client.createRun({ prompt: 'cancel me', team: true });
    await client.cancelRun(other);

    expect(wireIssues()).toEqual([]);
    expect(endpointsSeen()).toEqual([
      'GET /agent/runs',
      'GET /agent/runs/{runId}',
      'POST /agent/runs',
      'POST /agent/runs/{runId}/cancel',
      'POST /agent/runs/{runId}/followups',
    ]);
    expect(proxy.exchanges).toHaveLength(12);
  });

  it('progress, stop and the catalogue: conversation, timeline, interrupt, environments, models', async () => {
    await client.listEnvironments();
    await client.listModels();
    const { run_id } = await client.createRun({ prompt: 'work [slow]' });
    now += 350; // CLAIMED: the timeline has set-up events
    await client.getTimeline(run_id);
    now += 400; // INPROGRESS: the agent has started and has steps
    await client.getConversation(run_id);
    await client.sendFollowup(run_id, { message: 'also the docs' });
    await client.interruptRun(run_id);

    expect(wireIssues()).toEqual([]);
    expect(endpointsSeen()).toEqual([
      'GET /agent/environments',
      'GET /agent/models',
      'GET /agent/runs/{runId}/conversation',
      'GET /agent/runs/{runId}/timeline',
      'POST /agent/runs',
      'POST /agent/runs/{runId}/followups',
      'POST /agent/runs/{runId}/interrupt',
    ]);
  });

  it('plan mode: the plan waits BLOCKED as a PLAN artifact whose Markdown the artifact read returns, revised and approved by follow-ups', async () => {
    const { run_id } = await client.createRun({ prompt: 'Fix the flaky login test', mode: 'plan' });
    now += TO_END;
    const waiting = await client.getRun(run_id);
    expect(waiting.state).toBe('BLOCKED');
    const plan = waiting.artifacts?.find((a) => a.artifact_type === 'PLAN');
    const uid = plan?.data.artifact_uid;
    expect(typeof uid).toBe('string');
    const first = await client.getArtifact(String(uid));
    expect(first.artifact_type).toBe('PLAN');
    expect(first.data.content).toContain('# Plan: Fix the flaky login test');
    await client.sendFollowup(run_id, { message: 'Keep the old endpoint', mode: 'plan' });
    now += TO_END;
    expect((await client.getRun(run_id)).state).toBe('BLOCKED');
    const revised = await client.getArtifact(String(uid));
    expect(revised.data.content).toContain('Keep the old endpoint');
    expect(revised.data.content).not.toBe(first.data.content);
    await client.sendFollowup(run_id, { message: 'Approved: carry out the plan.', mode: 'normal' });
    now += TO_END;
    const done = await client.getRun(run_id);
    expect(done.state).toBe('SUCCEEDED');
    expect(done.artifacts?.map((a) => a.artifact_type).sort()).toEqual(['PLAN', 'PULL_REQUEST']);
    const unknown = await client.getArtifact('no-such-artifact').catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'not_found', status: 404 });

    expect(wireIssues()).toEqual([]);
    expect(endpointsSeen()).toContain('GET /agent/artifacts/{artifactUid}');
  });

  it('factories: every page of the list, one factory, a dispatch with a ticket reference', async () => {
    await client.listFactories({ search: 'factory' });
    await client.listFactories({});
    await client.getFactory('factory-docs');
    const res = await client.dispatchToFactory('factory-docs', {
      prompt: 'Document retries',
      title: 'Retries',
      ticket_ref: ticketRefOf({ repo: 'acme/app', number: 12 }),
      ticket_url: 'https://github.com/acme/app/issues/12',
    });
    await client.getRun(res.run_id);
    expect(wireIssues()).toEqual([]);
    expect(endpointsSeen()).toEqual([
      'GET /agent/runs/{runId}',
      'GET /factory',
      'GET /factory/{uid}',
      'POST /factory/{uid}/runs',
    ]);
  });

  it('errors: every refusal the relay reads is a published problem body', async () => {
    await client.getRun('no-such-run').catch(() => undefined);
    await client.listRuns({ cursor: 'not-a-cursor' }).catch(() => undefined);
    const { run_id } = await client.createRun({ prompt: 'done' });
    emu.setState(run_id, 'SUCCEEDED');
    await client.cancelRun(run_id).catch(() => undefined);
    const held = await client.createRun({ prompt: 'hold [pending]' });
    now += TIMINGS.queuedMs;
    await client.cancelRun(held.run_id).catch(() => undefined);
    const fixed = await client.createRun({ prompt: 'keep [nocancel]' });
    await client.cancelRun(fixed.run_id).catch(() => undefined);
    emu.faults.metadataFilterUnavailable(true);
    await client.findRunByRequest('req-x', new Date(now - 60_000).toISOString());
    emu.faults.failNext(1, 503, { retryAfterSeconds: 1 });
    await client.listRuns({ limit: 1 });
    emu.faults.failNext(1, 429, { route: 'POST /agent/runs', retryAfterSeconds: 1 });
    await client.createRun({ prompt: 'later' });
    await createAgentClient({ baseUrl: proxy.baseUrl, apiKey: 'wrong', maxRetries: 0 })
      .listRuns()
      .catch(() => undefined);

    const statuses = proxy.exchanges.map((x) => x.status).filter((s) => s >= 400);
    expect(new Set(statuses)).toEqual(new Set([400, 401, 403, 404, 409, 422, 429, 503]));
    expect(wireIssues()).toEqual([]);
  });
});

describe('the check itself', () => {
  const exchange = (over: Partial<Parameters<typeof checkExchange>[0]>) =>
    checkExchange({
      method: 'GET',
      path: '/agent/runs',
      query: new URLSearchParams(),
      body: undefined,
      status: 200,
      answer: { runs: [], page_info: { has_next_page: false } },
      ...over,
    });

  it('accepts a conforming exchange', () => {
    expect(exchange({})).toEqual([]);
  });

  it('reports an off-spec request: an unknown filter, a bare ticket reference, a deprecated path', () => {
    expect(exchange({ query: new URLSearchParams('stamp=req-1') })).toEqual([
      expect.stringContaining('stamp'),
    ]);
    expect(
      exchange({
        query: new URLSearchParams(
          'metadata[a]=1&metadata[b]=2&metadata[c]=3&metadata[d]=4&metadata[e]=5&metadata[f]=6',
        ),
      }),
    ).toEqual([expect.stringContaining('at most 5 pairs')]);
    const dispatch = exchange({
      method: 'POST',
      path: '/factory/f-1/runs',
      body: { prompt: 'p', ticket_ref: 'acme/app#12' },
      answer: {
        factory_uid: 'f-1',
        foreman_agent: 'foreman',
        run_id: 'r',
        state: 'QUEUED',
        ticket_ref: ticketRefOf({ repo: 'acme/app', number: 12 }),
      },
    });
    expect(dispatch).toEqual([expect.stringMatching(/request ticket_ref: .*<source>:<id>/)]);
    expect(exchange({ method: 'POST', path: '/agent/run', body: { prompt: 'p' } })).toEqual([
      'POST /agent/run: not an endpoint the published description has',
    ]);
  });

  it('reports an off-spec answer: a missing required field, an unpublished error code, a foreign error type', () => {
    const run = {
      run_id: 'r',
      task_id: 'r',
      title: 't',
      state: 'FAILED',
      prompt: 'p',
      created_at: '2025-03-01T12:00:00.000Z',
      updated_at: '2025-03-01T12:00:00.000Z',
      finished_at: null,
      root_run_id: 'r',
      status_message: { message: 'm', error_code: 'task_failed' },
    };
    expect(exchange({ path: '/agent/runs/r', answer: run })).toEqual([
      expect.stringContaining('status_message.error_code'),
    ]);
    const { root_run_id: _, ...noRoot } = run;
    expect(
      exchange({ path: '/agent/runs/r', answer: { ...noRoot, status_message: { message: 'm' } } }),
    ).toEqual([expect.stringContaining('root_run_id')]);
    const problem = {
      type: 'https://example.test/errors/resource_not_found',
      title: 'Not found',
      status: 404,
      error: 'Not found',
    };
    expect(exchange({ path: '/agent/runs/r', status: 404, answer: problem })).toEqual([
      expect.stringContaining('answer 404 type'),
    ]);
  });
});

describe('coverage', () => {
  it('the table names every endpoint the client calls', () => {
    expect(PUBLISHED_ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort()).toEqual(
      [
        'GET /agent/artifacts/{artifactUid}',
        'GET /agent/environments',
        'GET /agent/models',
        'GET /agent/runs',
        'GET /agent/runs/{runId}',
        'GET /agent/runs/{runId}/conversation',
        'GET /agent/runs/{runId}/timeline',
        'GET /factory',
        'GET /factory/{uid}',
        'POST /agent/runs',
        'POST /agent/runs/{runId}/cancel',
        'POST /agent/runs/{runId}/followups',
        'POST /agent/runs/{runId}/interrupt',
        'POST /factory/{uid}/runs',
      ].sort(),
    );
  });
});

// At compile time: every field the relay's request types can carry is a published one, so
// no call site can send what the recorded calls above did not show.
// (An index signature, kept so the client can pass a field it does not model, is left out.)
type Fits<Actual extends Expected, Expected> = [Actual, Expected];
type Named<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };
export type _RequestFieldsArePublished = [
  Fits<Named<CreateRunRequest>, keyof z.input<typeof PUBLISHED.RunAgentRequest>>,
  Fits<Named<ListRunsQuery>, keyof z.input<typeof PUBLISHED.ListRunsQuery>>,
  Fits<Named<FollowupRequest>, keyof z.input<typeof PUBLISHED.RunFollowupRequest>>,
  Fits<Named<DispatchRequest>, keyof z.input<typeof PUBLISHED.DispatchFactoryRunRequest>>,
];
