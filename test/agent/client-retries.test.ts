import { errors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  API_KEY,
  closedPort,
  loopbackClient,
  createHarness,
  JSON_HEADERS,
  NOW,
  PROBLEM_HEADERS,
  problem,
  runItem,
  type Harness,
} from './client-fixtures.js';

const RUN_PATH = '/api/v1/agent/runs/run-1';
let h: Harness | undefined;
afterEach(async () => {
  h?.agent.assertNoPendingInterceptors();
  await h?.close();
  h = undefined;
});

function harness(...args: Parameters<typeof createHarness>): Harness {
  h = createHarness(...args);
  return h;
}

function getRun(status: number, body: unknown, headers: Record<string, string> = {}) {
  const data = typeof body === 'string' ? body : JSON.stringify(body);
  return h!.pool.intercept({ method: 'GET', path: RUN_PATH }).reply(status, data, { headers });
}

describe('agent client: retries', () => {
  it('retries 500 and 503 with exponential backoff, then succeeds', async () => {
    const { client, sleeps, requests } = harness();
    getRun(500, problem(500, 'internal_error'), PROBLEM_HEADERS);
    getRun(503, 'upstream down');
    getRun(200, runItem(), JSON_HEADERS);
    expect((await client.getRun('run-1')).run_id).toBe('run-1');
    expect(sleeps).toEqual([500, 1000]);
    expect(requests.map((r) => [r.attempt, r.status, r.error])).toEqual([
      [0, 500, 'internal_server'],
      [1, 503, 'internal_server'],
      [2, 200, undefined],
    ]);
  });

  it('honours Retry-After in seconds and as an HTTP date, and retry-after-ms', async () => {
    const { client, sleeps } = harness({ maxRetries: 3 });
    getRun(429, problem(429, 'resource_unavailable'), { 'retry-after': '3' });
    getRun(429, problem(429, 'resource_unavailable'), {
      'retry-after': new Date(NOW + 5000).toUTCString(),
    });
    getRun(503, '', { 'retry-after-ms': '250', 'retry-after': '9' });
    getRun(200, runItem());
    await client.getRun('run-1');
    expect(sleeps).toEqual([3000, 5000, 250]);
  });

  it('gives up after maxRetries (2 by default) with the last error', async () => {
    const { client, sleeps } = harness();
    getRun(503, problem(503, 'internal_error')).times(3);
    const err = await client.getRun('run-1').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'internal_server' });
    expect(sleeps).toHaveLength(2);
  });

  it('maxRetries is overridable per call', async () => {
    const { client, sleeps } = harness();
    getRun(500, problem(500, 'internal_error')).times(5);
    await expect(client.getRun('run-1', { maxRetries: 4 })).rejects.toMatchObject({
      code: 'internal_server',
    });
    expect(sleeps).toHaveLength(4);
    getRun(500, problem(500, 'internal_error'));
    await expect(client.getRun('run-1', { maxRetries: 0 })).rejects.toMatchObject({
      code: 'internal_server',
    });
    expect(sleeps).toHaveLength(4);
  });

  it('does not retry a 404 or a body that vetoes retrying', async () => {
    const { client, sleeps } = harness();
    getRun(404, problem(404, 'resource_not_found'));
    await expect(client.getRun('run-1')).rejects.toMatchObject({ code: 'not_found' });
    getRun(500, problem(500, 'environment_setup_failed', { retryable: false }));
    await expect(client.getRun('run-1')).rejects.toMatchObject({ code: 'internal_server' });
    expect(sleeps).toEqual([]);
  });

  it('retries a 409 on cancel (run still PENDING)', async () => {
    const { client, sleeps, pool } = harness();
    const path = '/api/v1/agent/runs/run-1/cancel';
    pool
      .intercept({ method: 'POST', path })
      .reply(409, problem(409, 'conflict', { retryable: true }));
    pool.intercept({ method: 'POST', path }).reply(200, JSON.stringify('run-1'));
    await client.cancelRun('run-1');
    expect(sleeps).toEqual([500]);
  });

  it('retries connection errors (reset) on reads', async () => {
    const { client, pool, sleeps } = harness();
    pool
      .intercept({ method: 'GET', path: RUN_PATH })
      .replyWithError(new errors.SocketError('other side closed'));
    getRun(200, runItem());
    expect((await client.getRun('run-1')).run_id).toBe('run-1');
    expect(sleeps).toEqual([500]);
  });

  it('a reply slower than timeoutMs is a connection_timeout error', async () => {
    const { client, requests } = harness({ timeoutMs: 50 });
    getRun(200, runItem()).delay(1000);
    const err = await client.getRun('run-1', { maxRetries: 0 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'connection_timeout' });
    expect(err).toMatchObject({ code: 'connection_timeout', retryable: true });
    expect((err as Error).message).toContain('50 ms');
    expect(requests[0]?.error).toBe('connection_timeout');
  });

  it('a per-call timeoutMs overrides the default, and a timeout is retried', async () => {
    const { client, sleeps } = harness();
    getRun(200, runItem()).delay(1000);
    getRun(200, runItem({ state: 'SUCCEEDED' }));
    const run = await client.getRun('run-1', { timeoutMs: 50 });
    expect(run.state).toBe('SUCCEEDED');
    expect(sleeps).toEqual([500]);
  });

  it('an aborted signal rejects with its reason and stops retrying', async () => {
    const { client, requests } = harness();
    getRun(200, runItem()).delay(1000);
    const controller = new AbortController();
    const pending = client.getRun('run-1', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user gave up')), 20);
    await expect(pending).rejects.toThrow('user gave up');
    expect(requests.map((r) => r.error)).toEqual(['aborted']);
  });

  it('an abort during the backoff stops before the next attempt', async () => {
    const controller = new AbortController();
    const { client, requests } = harness({
      sleep: async () => {
        controller.abort();
      },
    });
    getRun(500, problem(500, 'internal_error'));
    const err = await client
      .getRun('run-1', { signal: controller.signal })
      .catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(requests).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const { client, requests } = harness();
    await expect(client.getRun('run-1', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(requests).toHaveLength(0);
  });

  it('a rate limit with the default sleep really waits the Retry-After', async () => {
    h = createHarness({ sleep: undefined, maxRetries: 1 });
    getRun(429, problem(429, 'resource_unavailable'), { 'retry-after-ms': '60' });
    getRun(200, runItem());
    const started = performance.now();
    await h.client.getRun('run-1');
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('a refused connection on a real closed loopback port is a connection error, retried', async () => {
    const { client, sleeps, dispatcher } = loopbackClient(await closedPort(), {
      random: () => 0,
    });
    try {
      const err = await client.getRun('run-1').catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'connection' });
      expect(err).toMatchObject({ code: 'connection', beforeSend: true, retryable: true });
      expect((err as Error).message).toContain('ECONNREFUSED');
      expect((err as Error).message).not.toContain(API_KEY);
      expect(sleeps).toEqual([500, 1000]);
    } finally {
      await dispatcher.close();
    }
  });

  it('429 errors surface as rate_limit errors with retryAfterMs when retries run out', async () => {
    const { client } = harness({ maxRetries: 0 });
    getRun(429, problem(429, 'resource_unavailable'), { 'retry-after': '12' });
    await expect(client.getRun('run-1')).rejects.toMatchObject({
      retryAfterMs: 12_000,
      code: 'rate_limit',
    });
  });
});
