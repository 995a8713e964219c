/**
 * Contract suite: the real agent client (src/agent) against the real emulator over loopback.
 * Both share one manual clock, so states move only when the test says and the client's
 * reconciliation window lines up with the emulator's timestamps. Retries do not wait: the
 * client's injected `sleep` records the delays it was asked for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentApiError, createAgentClient, type AgentClient } from '../../src/agent/index.js';
import { isServiceError } from '../../src/core/ports/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { rejectionOf } from '../helpers/rejection.js';

const TIMINGS = { queuedMs: 100, pendingMs: 100, claimedMs: 100, runMs: 1000, slowRunMs: 10_000 };
const TO_END = 1300;

let emu: Emulator;
let client: AgentClient;
let now: number;
let sleeps: number[];
const clock = { now: () => now };

function makeClient(apiKey = emu.apiKey, maxRetries = 2): AgentClient {
  return createAgentClient({
    baseUrl: emu.baseUrl,
    apiKey,
    maxRetries,
    timeoutMs: 5000,
    clock,
    random: () => 0,
    sleep: async (ms) => void sleeps.push(ms),
  });
}

beforeEach(async () => {
  now = Date.parse('2025-03-01T12:00:00.000Z');
  sleeps = [];
  emu = await startEmulator({ clock, tickMs: 60_000, timings: TIMINGS });
  client = makeClient();
});
afterEach(() => emu.close());

async function failure(promise: Promise<unknown>): Promise<AgentApiError> {
  const err = await rejectionOf(promise, AgentApiError);
  expect(isServiceError(err)).toBe(true);
  return err;
}

async function create(prompt: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await client.createRun({ prompt, ...extra });
  now += 1;
  return res.run_id;
}

describe('runs', () => {
  it('creates a run and reads its detail through the schemas', async () => {
    const res = await client.createRun({
      prompt: 'Fix the typo in README',
      config: { name: 'docs', model_id: 'm-1' },
      metadata: { relay_request: 'req-1', relay_platform: 'slack' },
    });
    expect(res).toMatchObject({ state: 'QUEUED' });
    const run = await client.getRun(res.run_id);
    expect(run).toMatchObject({
      run_id: res.run_id,
      title: 'Fix the typo in README',
      state: 'QUEUED',
      agent_config: { name: 'docs', model_id: 'm-1' },
      metadata: { relay_request: 'req-1', relay_platform: 'slack' },
      creator: { display_name: 'API key', type: 'service_account' },
      is_run_type_cancellable: true,
    });
    now += TO_END;
    const done = await client.getRun(res.run_id);
    expect(done.state).toBe('SUCCEEDED');
    expect(done.run_time).toBe('PT1S');
    expect(done.artifacts?.[0]).toMatchObject({ artifact_type: 'PULL_REQUEST' });
    expect(done.session_link).toMatch(new RegExp(`^${emu.url}/sessions/`));
  });

  it('maps a rejected create and an unknown run to typed errors', async () => {
    const bad = await failure(client.createRun({ prompt: 'p', metadata: { 'bad key': 'v' } }));
    expect(bad).toMatchObject({ code: 'bad_request' });
    expect(bad).toMatchObject({ code: 'bad_request', status: 400, serviceCode: 'invalid_request' });
    expect(bad.detail).toMatch(/bad key/);
    const missing = await failure(client.getRun('no-such-run'));
    expect(missing).toMatchObject({ code: 'not_found' });
    expect(missing).toMatchObject({
      code: 'not_found',
      status: 404,
      serviceCode: 'resource_not_found',
    });
    expect(missing.retryable).toBe(false);
  });

  it('sends follow-ups; one to an ended run starts a new execution', async () => {
    const id = await create('first');
    await client.sendFollowup(id, { message: 'and the docs', mode: 'plan' });
    expect(emu.followups).toMatchObject([{ runId: id, message: 'and the docs', mode: 'plan' }]);
    now += TO_END;
    expect((await client.getRun(id)).state).toBe('SUCCEEDED');
    await client.sendFollowup(id, { message: 'one more thing [fail]' });
    expect((await client.getRun(id)).state).toBe('QUEUED');
    now += TO_END;
    expect((await client.getRun(id)).state).toBe('FAILED');
    const err = await failure(client.sendFollowup('nope', { message: 'x' }));
    expect(err.code).toBe('not_found');
  });
});

describe('list', () => {
  let ids: string[];
  let t0: number;
  beforeEach(async () => {
    t0 = now;
    ids = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        await create(i % 2 === 0 ? `Fix login ${i}` : `Write docs ${i}`, {
          title: `T${i}`,
          config: { name: i < 2 ? 'alpha' : 'beta', model_id: i === 4 ? 'special' : 'std' },
        }),
      );
    }
    emu.setState(ids[0] as string, 'INPROGRESS');
    emu.setState(ids[1] as string, 'BLOCKED');
  });
  const idsOf = (runs: { run_id: string }[]) => runs.map((r) => r.run_id).sort();
  const pick = (...i: number[]) => i.map((k) => ids[k] as string).sort();
  const iso = (ms: number) => new Date(ms).toISOString();

  it('applies each filter', async () => {
    const list = async (q: Parameters<AgentClient['listRuns']>[0]) =>
      idsOf((await client.listRuns({ limit: 100, ...q })).runs);
    expect(await list({ state: ['INPROGRESS', 'BLOCKED'] })).toEqual(pick(0, 1));
    expect(await list({ state: ['QUEUED'] })).toEqual(pick(2, 3, 4));
    expect(await list({ name: 'alpha' })).toEqual(pick(0, 1));
    expect(await list({ model_id: 'special' })).toEqual(pick(4));
    expect(await list({ creator: 'sa-api-key' })).toHaveLength(5);
    expect(await list({ creator: 'someone' })).toEqual([]);
    expect(await list({ source: 'API' })).toHaveLength(5);
    expect(await list({ created_after: iso(t0 + 2) })).toEqual(pick(3, 4));
    expect(await list({ created_before: iso(t0 + 1) })).toEqual(pick(0));
    expect(await list({ updated_after: iso(t0 + 4) })).toEqual(pick(0, 1));
    expect(await list({ q: 'LOGIN' })).toEqual(pick(0, 2, 4));
  });

  it('sorts and pages with cursors, by hand and through the iterator', async () => {
    const first = await client.listRuns({ limit: 2, sort_by: 'title', sort_order: 'asc' });
    expect(first.runs.map((r) => r.title)).toEqual(['T0', 'T1']);
    expect(first.hasNextPage).toBe(true);
    const second = await client.listRuns({
      limit: 2,
      sort_by: 'title',
      sort_order: 'asc',
      cursor: first.nextCursor,
    });
    expect(second.runs.map((r) => r.title)).toEqual(['T2', 'T3']);

    const all: string[] = [];
    for await (const run of client.runs.list({ limit: 2, sort_by: 'created_at' })) {
      all.push(run.run_id);
    }
    expect(all).toEqual([...ids].reverse());
    expect(emu.requests.get('GET /agent/runs')).toBe(2 + 3);

    const err = await failure(client.listRuns({ limit: 501 }));
    expect(err).toMatchObject({ code: 'bad_request', status: 400 });
  });
});

describe('cancel in every state', () => {
  it.each(['QUEUED', 'CLAIMED', 'INPROGRESS'])('cancels a %s run', async (state) => {
    const id = await create('cancel me');
    if (state !== 'QUEUED') emu.setState(id, state);
    await client.cancelRun(id);
    expect((await client.getRun(id)).state).toBe('CANCELLED');
  });

  it('gets a conflict error (retryable) while PENDING, after the client retried', async () => {
    const id = await create('hold [pending]');
    now += TIMINGS.queuedMs;
    const err = await failure(client.cancelRun(id));
    expect(err).toMatchObject({ code: 'conflict' });
    expect(err).toMatchObject({
      code: 'conflict',
      status: 409,
      serviceCode: 'conflict',
      retryable: true,
    });
    expect(emu.requests.get('POST /agent/runs/:id/cancel')).toBe(3);
    expect(sleeps).toEqual([500, 1000]);
    expect((await client.getRun(id)).state).toBe('PENDING');
  });

  it.each(['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'])(
    'gets a bad_request error for a %s run',
    async (state) => {
      const id = await create('done');
      emu.setState(id, state);
      const err = await failure(client.cancelRun(id));
      expect(err).toMatchObject({ code: 'bad_request' });
      expect(err).toMatchObject({ code: 'bad_request', status: 400, retryable: false });
      expect(emu.requests.get('POST /agent/runs/:id/cancel')).toBe(1);
    },
  );

  it('gets not_found for an unknown run and unprocessable for [nocancel]', async () => {
    expect(await failure(client.cancelRun('nope'))).toMatchObject({ code: 'not_found' });
    const id = await create('keep [nocancel]');
    const err = await failure(client.cancelRun(id));
    expect(err).toMatchObject({ code: 'unprocessable' });
    expect(err).toMatchObject({ code: 'unprocessable', serviceCode: 'operation_not_supported' });
  });
});

describe('factories', () => {
  it('searches, reads and dispatches', async () => {
    const found = await client.listFactories({ search: 'DOC' });
    expect(found).toMatchObject([{ uid: 'factory-docs', name: 'Docs Factory', alias: 'docs' }]);
    expect(await client.listFactories({})).toHaveLength(2);
    expect(await client.getFactory('factory-triage')).toMatchObject({ alias: 'triage' });
    expect((await failure(client.getFactory('nope'))).code).toBe('not_found');

    const res = await client.dispatchToFactory('factory-docs', {
      prompt: 'Document retries',
      ticket_ref: 'linear:DOC-1',
    });
    expect(res).toMatchObject({ state: 'QUEUED', run_url: expect.stringContaining('/sessions/') });
    const run = await client.getRun(res.run_id);
    expect(run).toMatchObject({
      agent_config: { name: 'Docs Factory' },
      executor: { display_name: 'Docs Factory foreman', type: 'service_account' },
    });
  });
});

describe('auth and faults', () => {
  it('a wrong key gives an authentication error, not retried', async () => {
    const err = await failure(makeClient('wrong-key').listRuns());
    expect(err).toMatchObject({ code: 'authentication' });
    expect(err).toMatchObject({
      code: 'authentication',
      status: 401,
      serviceCode: 'authentication_required',
      retryable: false,
    });
    expect(err.message).not.toContain('wrong-key');
    expect(emu.requests.total()).toBe(1);
  });

  it('a 503 with Retry-After is retried after the asked delay and succeeds', async () => {
    const id = await create('p');
    emu.faults.failNext(1, 503, { retryAfterSeconds: 2 });
    expect((await client.getRun(id)).run_id).toBe(id);
    expect(sleeps).toEqual([2000]);
    expect(emu.requests.get('GET /agent/runs/:id')).toBe(2);
  });

  it('a create answered 503/429 (not processed) is retried and makes exactly one run', async () => {
    emu.faults.failNext(1, 503, { route: 'POST /agent/runs' });
    emu.faults.failNext(1, 429, { route: 'POST /agent/runs', retryAfterSeconds: 1 });
    const res = await client.createRun({ prompt: 'p', metadata: { relay_request: 'req-r' } });
    expect(emu.runs.all().map((r) => r.run_id)).toEqual([res.run_id]);
    expect(sleeps).toEqual([1000, 1000]);
  });

  it('more failures than retries give a typed error', async () => {
    emu.faults.failNext(3, 500);
    const err = await failure(client.listRuns());
    expect(err).toMatchObject({ code: 'internal_server' });
    expect(err).toMatchObject({
      code: 'internal_server',
      status: 500,
      serviceCode: 'internal_error',
    });
    expect(err.retryable).toBe(true);
    expect(emu.requests.get('GET /agent/runs')).toBe(3);

    emu.faults.failNext(2, 429, { retryAfterSeconds: 4 });
    const limited = await failure(makeClient(emu.apiKey, 1).listRuns());
    expect(limited).toMatchObject({ code: 'rate_limit' });
    expect(limited).toMatchObject({ code: 'rate_limit', retryAfterMs: 4000 });
  });
});

describe('create reconciliation', () => {
  it('a create whose answer is lost is found by metadata.relay_request: one run, no retry', async () => {
    emu.seedRuns(30, { state: 'SUCCEEDED', metadata: (i) => ({ relay_request: `other-${i}` }) });
    emu.faults.dropNext(1, { route: 'POST /agent/runs', afterProcessing: true });
    const res = await client.withResponse.createRun({
      prompt: 'exactly once',
      metadata: { relay_request: 'req-lost' },
    });
    expect(res.reconciled).toBe(true);
    const ours = emu.runs.all().filter((r) => r.metadata?.relay_request === 'req-lost');
    expect(ours.map((r) => r.run_id)).toEqual([res.data.run_id]);
    expect(emu.requests.get('POST /agent/runs')).toBe(1);
    expect(
      await client.findRunByRequest('req-lost', new Date(now - 60_000).toISOString()),
    ).toMatchObject({ run_id: res.data.run_id });
  });

  it('a create dropped before processing and a 500 are not repeated: outcome unknown, no run', async () => {
    emu.faults.dropNext(1, { route: 'POST /agent/runs' });
    const dropped = await failure(
      client.createRun({ prompt: 'p', metadata: { relay_request: 'req-drop' } }),
    );
    expect(dropped).toMatchObject({ code: 'connection', outcomeUnknown: true });

    emu.faults.failNext(1, 500, { route: 'POST /agent/runs' });
    const broken = await failure(
      client.createRun({ prompt: 'p', metadata: { relay_request: 'req-500' } }),
    );
    expect(broken).toMatchObject({ code: 'internal_server', outcomeUnknown: true });
    expect(emu.requests.get('POST /agent/runs')).toBe(2);
    expect(emu.runs.count()).toBe(0);
  });
});
