import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent, errors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentApiError, createAgentClient } from '../../src/agent/index.js';
import {
  API_KEY,
  closedPort,
  createHarness,
  loopbackClient,
  NOW,
  problem,
  runItem,
  type Harness,
} from './client-fixtures.js';
import { rejectionOf } from '../helpers/rejection.js';

const CREATE = '/api/v1/agent/runs';
const STAMPED = {
  prompt: 'fix it',
  metadata: { relay_request: 'req-42', relay_platform: 'slack' },
};

let h: Harness;
let listQueries: URLSearchParams[];
let posts: number;
afterEach(async () => {
  h.agent.assertNoPendingInterceptors();
  await h.close();
});

function setup(...args: Parameters<typeof createHarness>): Harness {
  h = createHarness(...args);
  listQueries = [];
  posts = 0;
  return h;
}

function createAnswers(
  status: number,
  body: unknown = problem(status, 'internal_error'),
  headers = {},
) {
  return h.pool.intercept({ method: 'POST', path: CREATE }).reply(() => {
    posts++;
    return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers } };
  });
}

function createFails(error: Error) {
  h.pool.intercept({ method: 'POST', path: CREATE }).replyWithError(error);
}

function listAnswers(runs: Record<string, unknown>[], nextCursor?: string) {
  return h.pool
    .intercept({ method: 'GET', path: (p) => p.startsWith('/api/v1/agent/runs?') })
    .reply((opts) => {
      listQueries.push(new URL(opts.path, 'http://x').searchParams);
      const page_info = nextCursor
        ? { has_next_page: true, next_cursor: nextCursor }
        : { has_next_page: false };
      return { statusCode: 200, data: JSON.stringify({ runs, page_info }) };
    });
}

const ours = runItem({
  run_id: 'run-ours',
  state: 'QUEUED',
  metadata: { relay_request: 'req-42' },
});
const theirs = runItem({ run_id: 'run-theirs', metadata: { relay_request: 'req-other' } });

const failure = (promise: Promise<unknown>) => rejectionOf(promise, AgentApiError);

describe('createRun: never blindly retried', () => {
  it('a 500 is not retried; the run is found by its stamp and returned', async () => {
    const { client, sleeps } = setup();
    createAnswers(500);
    listAnswers([theirs, ours]);
    const created = await client.createRun(STAMPED);
    expect(created).toEqual({ run_id: 'run-ours', state: 'QUEUED' });
    expect(posts).toBe(1);
    expect(sleeps).toEqual([]);
    const q = listQueries[0]!;
    expect(q.get('created_after')).toBe(new Date(NOW - 60_000).toISOString());
    expect(q.get('sort_by')).toBe('created_at');
    expect(q.get('sort_order')).toBe('desc');
    expect(q.get('limit')).toBe('100');
    // The service filters by our stamp (the published `metadata[key]=value` form).
    expect(q.get('metadata[relay_request]')).toBe('req-42');
  });

  it('withResponse.createRun marks a reconciled answer', async () => {
    const { client } = setup();
    createAnswers(502, 'bad gateway');
    listAnswers([ours]);
    const res = await client.withResponse.createRun(STAMPED);
    expect(res).toMatchObject({ reconciled: true, status: 200, data: { run_id: 'run-ours' } });
  });

  it('a 500 whose run is not found throws with outcomeUnknown', async () => {
    const { client } = setup();
    createAnswers(500);
    listAnswers([theirs]);
    const err = await failure(client.createRun(STAMPED));
    expect(err).toMatchObject({ code: 'internal_server' });
    expect(err.outcomeUnknown).toBe(true);
    expect(posts).toBe(1);
  });

  it('without a relay_request stamp there is nothing to reconcile: outcomeUnknown', async () => {
    const { client } = setup();
    createAnswers(504, 'gateway timeout');
    const err = await failure(client.createRun({ prompt: 'no stamp' }));
    expect(err).toMatchObject({ status: 504, outcomeUnknown: true });
    expect(listQueries).toHaveLength(0);
  });

  it('a reset mid-response is reconciled, not retried', async () => {
    const { client, sleeps } = setup();
    createFails(new errors.SocketError('other side closed'));
    listAnswers([ours]);
    expect(await client.createRun(STAMPED)).toEqual({ run_id: 'run-ours', state: 'QUEUED' });
    expect(sleeps).toEqual([]);
  });

  it('a timeout after sending is not retried; unknown when the run is not listed', async () => {
    const { client, sleeps } = setup({ timeoutMs: 50 });
    createAnswers(200, { run_id: 'late', state: 'QUEUED' }).delay(1000);
    listAnswers([]);
    const err = await failure(client.createRun(STAMPED));
    expect(err).toMatchObject({ code: 'connection_timeout' });
    expect(err.outcomeUnknown).toBe(true);
    expect(sleeps).toEqual([]);
  });

  it('a 2xx with an unreadable body is reconciled (the run exists)', async () => {
    const { client } = setup();
    createAnswers(200, { state: 'QUEUED' });
    listAnswers([ours]);
    expect((await client.createRun(STAMPED)).run_id).toBe('run-ours');
  });

  it('reconciliation scans further pages and matches on the client side', async () => {
    const { client } = setup();
    createAnswers(500);
    listAnswers([theirs], 'p2');
    listAnswers([theirs, ours]);
    expect((await client.createRun(STAMPED)).run_id).toBe('run-ours');
    expect(listQueries.map((q) => q.get('cursor'))).toEqual([null, 'p2']);
  });

  it('reconciliation reads at most 10 pages', async () => {
    const { client } = setup();
    createAnswers(500);
    for (let i = 0; i < 10; i++) listAnswers([theirs], `p${i + 1}`);
    const err = await failure(client.createRun(STAMPED));
    expect(err.outcomeUnknown).toBe(true);
    expect(listQueries).toHaveLength(10);
  });

  it('a failing reconciliation leaves the original error, outcome unknown', async () => {
    const { client } = setup({ maxRetries: 0 });
    createAnswers(500);
    h.pool
      .intercept({ method: 'GET', path: (p) => p.startsWith('/api/v1/agent/runs?') })
      .reply(503, 'down');
    const err = await failure(client.createRun(STAMPED));
    expect(err).toMatchObject({ status: 500, outcomeUnknown: true });
  });

  it('a definite 4xx is thrown as is: no retry, no reconciliation', async () => {
    const { client } = setup();
    createAnswers(400, problem(400, 'invalid_request', { detail: 'prompt or skill required' }));
    const err = await failure(client.createRun({ metadata: { relay_request: 'req-42' } }));
    expect(err).toMatchObject({ code: 'bad_request' });
    expect(err.outcomeUnknown).toBeUndefined();
    expect(listQueries).toHaveLength(0);
  });
});

describe('createRun: retried only when provably not processed', () => {
  it('retries a 503; after a 429 (with Retry-After) it looks by stamp before sending again', async () => {
    const { client, sleeps } = setup();
    createAnswers(503, problem(503, 'internal_error'));
    createAnswers(429, problem(429, 'resource_unavailable'), { 'retry-after': '2' });
    listAnswers([theirs]);
    createAnswers(200, { run_id: 'run-1', state: 'QUEUED' });
    expect(await client.createRun(STAMPED)).toEqual({ run_id: 'run-1', state: 'QUEUED' });
    expect(posts).toBe(3);
    expect(sleeps).toEqual([500, 2000]);
    expect(listQueries).toHaveLength(1);
  });

  it('a 429 whose run the service queued anyway is found, not sent again', async () => {
    const { client, sleeps } = setup();
    createAnswers(429, problem(429, 'resource_unavailable'), { 'retry-after': '1' });
    listAnswers([ours]);
    expect(await client.createRun(STAMPED)).toEqual({ run_id: 'run-ours', state: 'QUEUED' });
    expect(posts).toBe(1);
    expect(sleeps).toEqual([1000]);
  });

  it('a 429 after all retries is a rate_limit error whose outcome is known', async () => {
    const { client } = setup({ maxRetries: 1 });
    createAnswers(429, problem(429, 'resource_unavailable')).times(2);
    listAnswers([theirs]);
    const err = await failure(client.createRun(STAMPED));
    expect(err).toMatchObject({ code: 'rate_limit' });
    expect(err.outcomeUnknown).toBeUndefined();
    expect(posts).toBe(2);
    expect(listQueries).toHaveLength(1);
  });

  it('an unstamped create has nothing to look up: its 429 is retried as before', async () => {
    const { client, sleeps } = setup();
    createAnswers(429, problem(429, 'resource_unavailable'), { 'retry-after': '1' });
    createAnswers(200, { run_id: 'run-2', state: 'QUEUED' });
    expect((await client.createRun({ prompt: 'no stamp' })).run_id).toBe('run-2');
    expect(sleeps).toEqual([1000]);
    expect(listQueries).toHaveLength(0);
  });

  it('retries a refused connection (nothing was sent)', async () => {
    const { client, sleeps } = setup();
    createFails(
      Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }),
    );
    createFails(new errors.ConnectTimeoutError());
    createAnswers(200, { run_id: 'run-1', state: 'QUEUED' });
    expect((await client.createRun(STAMPED)).run_id).toBe('run-1');
    expect(sleeps).toEqual([500, 1000]);
  });

  it('on a real closed loopback port: retried, then a connection error with a known outcome', async () => {
    setup();
    const { client, sleeps, dispatcher } = loopbackClient(await closedPort());
    try {
      const err = await failure(client.createRun(STAMPED));
      expect(err).toMatchObject({ code: 'connection' });
      expect(err.outcomeUnknown).toBeUndefined();
      expect(sleeps).toHaveLength(2);
    } finally {
      await dispatcher.close();
    }
  });
});

describe('createRun against a real loopback server that drops the connection', () => {
  it('sends the create once and finds the run by listing', async () => {
    setup();
    let creates = 0;
    const { server, port } = await listen((req, res) => {
      if (req.method === 'POST' && req.url === '/api/v1/agent/runs') {
        creates++;
        req.resume();
        req.on('end', () => req.socket.destroy());
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ runs: [ours], page_info: { has_next_page: false } }));
    });
    const dispatcher = new Agent();
    const client = createAgentClient({
      baseUrl: `http://127.0.0.1:${port}/api/v1`,
      apiKey: API_KEY,
      dispatcher,
    });
    try {
      expect(await client.createRun(STAMPED)).toEqual({ run_id: 'run-ours', state: 'QUEUED' });
      expect(creates).toBe(1);
    } finally {
      await dispatcher.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('other unsafe calls', () => {
  it('dispatchToFactory: a 502 is not retried and reports outcomeUnknown', async () => {
    const { client, pool, sleeps } = setup();
    pool.intercept({ method: 'POST', path: '/api/v1/factory/f1/runs' }).reply(502, 'bad gateway');
    const err = await failure(client.dispatchToFactory('f1', { prompt: 'triage' }));
    expect(err).toMatchObject({ status: 502, outcomeUnknown: true });
    expect(sleeps).toEqual([]);
  });

  it('dispatchToFactory: a 503 is retried', async () => {
    const { client, pool } = setup();
    pool.intercept({ method: 'POST', path: '/api/v1/factory/f1/runs' }).reply(503, 'busy');
    pool
      .intercept({ method: 'POST', path: '/api/v1/factory/f1/runs' })
      .reply(200, { run_id: 'r', state: 'QUEUED' });
    expect((await client.dispatchToFactory('f1', { prompt: 'triage' })).run_id).toBe('r');
  });

  it('sendFollowup: a 500 is not retried (the agent would get the message twice)', async () => {
    const { client, pool, sleeps } = setup();
    pool
      .intercept({ method: 'POST', path: '/api/v1/agent/runs/run-1/followups' })
      .reply(500, 'oops');
    const err = await failure(client.sendFollowup('run-1', { message: 'more' }));
    expect(err).toMatchObject({ status: 500, outcomeUnknown: true });
    expect(sleeps).toEqual([]);
  });
});

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port };
}
