import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/core/ports/index.js';
import {
  API_KEY,
  createHarness,
  headersOf,
  JSON_HEADERS,
  parseBody,
  runItem,
  type Harness,
  type Recorded,
} from './client-fixtures.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

let h: Harness;
let seen: Recorded[];

beforeEach(() => {
  h = createHarness();
  seen = [];
});
afterEach(async () => {
  h.agent.assertNoPendingInterceptors();
  await h.close();
});

/** Answer the next request matching method + path with `data`, recording what was sent. */
function answer(
  method: string,
  path: string | ((p: string) => boolean),
  data: unknown,
  status = 200,
) {
  h.pool.intercept({ method, path }).reply((opts) => {
    seen.push({
      method: opts.method,
      path: opts.path,
      headers: headersOf(opts.headers),
      body: parseBody(opts.body),
    });
    return {
      statusCode: status,
      data: JSON.stringify(data),
      responseOptions: { headers: JSON_HEADERS },
    };
  });
}

describe('agent client: request shapes', () => {
  it('createRun POSTs the request as JSON with bearer, user-agent and accept headers', async () => {
    answer('POST', '/api/v1/agent/runs', { run_id: 'run-9', state: 'QUEUED', future_field: 1 });
    const request = {
      prompt: 'fix the typo',
      config: {
        name: 'fixer',
        mcp_servers: { gh: { url: 'https://mcp.example' } },
        extra_knob: true,
      },
      metadata: { relay_thread: 'slack:C1:1.2', relay_request: 'req-1' },
    };
    const created = await h.client.createRun(request);
    expect(created).toEqual({ run_id: 'run-9', state: 'QUEUED', future_field: 1 });
    const [sent] = seen;
    expect(sent?.body).toEqual(request);
    expect(sent?.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      'user-agent': `agent-relay/${VERSION}`,
      accept: 'application/json',
      'content-type': 'application/json',
    });
  });

  it('listRuns repeats state, passes every filter and maps page_info', async () => {
    answer('GET', (p) => p.startsWith('/api/v1/agent/runs?'), {
      runs: [runItem()],
      page_info: { has_next_page: true, next_cursor: 'c2' },
    });
    const page = await h.client.listRuns({
      state: ['QUEUED', 'INPROGRESS'],
      limit: 50,
      created_after: '2025-06-01T00:00:00Z',
      sort_by: 'created_at',
      sort_order: 'asc',
      name: 'fixer bot',
    });
    const url = new URL(seen[0]?.path ?? '', 'http://x');
    expect(url.pathname).toBe('/api/v1/agent/runs');
    expect(url.searchParams.getAll('state')).toEqual(['QUEUED', 'INPROGRESS']);
    expect(seen[0]?.path).toContain('state=QUEUED&state=INPROGRESS');
    expect(Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'state'))).toEqual({
      limit: '50',
      created_after: '2025-06-01T00:00:00Z',
      sort_by: 'created_at',
      sort_order: 'asc',
      name: 'fixer bot',
    });
    expect(page.hasNextPage).toBe(true);
    expect(page.nextCursor).toBe('c2');
    expect(page.runs[0]?.artifacts?.[0]?.data).toEqual({
      url: 'https://github.com/o/r/pull/7',
      branch: 'fix/typo',
    });
  });

  it('listRuns without a query sends no query string; a null next_cursor is dropped', async () => {
    answer('GET', '/api/v1/agent/runs', {
      runs: [],
      page_info: { has_next_page: false, next_cursor: null },
    });
    const page = await h.client.listRuns();
    expect(seen[0]?.path).toBe('/api/v1/agent/runs');
    expect(page).toEqual({ runs: [], hasNextPage: false });
  });

  it('getRun URL-encodes the run id and keeps unknown states and fields', async () => {
    answer(
      'GET',
      '/api/v1/agent/runs/a%2Fb%20c',
      runItem({ state: 'HIBERNATING', shiny_new: { x: 1 } }),
    );
    const run = await h.client.getRun('a/b c');
    expect(run.state).toBe('HIBERNATING');
    expect((run as Record<string, unknown>).shiny_new).toEqual({ x: 1 });
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.headers['content-type']).toBeUndefined();
  });

  it.each(['', '.', '..'])('the run id %j is refused before any request', async (runId) => {
    const err = await h.client.getRun(runId).catch((e: unknown) => e);
    expect(isServiceError(err)).toBe(true);
    expect(err).toMatchObject({
      code: 'bad_request',
      serviceCode: 'invalid_request',
      retryable: false,
    });
    expect(seen).toHaveLength(0);
    expect(h.requests).toHaveLength(0);
  });

  it('sendFollowup POSTs {message, mode} and tolerates any object or an empty body', async () => {
    answer('POST', '/api/v1/agent/runs/run-1/followups', { whatever: true });
    await expect(
      h.client.sendFollowup('run-1', { message: 'also fix docs', mode: 'plan' }),
    ).resolves.toEqual({ whatever: true });
    expect(seen[0]?.body).toEqual({ message: 'also fix docs', mode: 'plan' });
    h.pool.intercept({ method: 'POST', path: '/api/v1/agent/runs/run-1/followups' }).reply(200, '');
    const res = await h.client.withResponse.sendFollowup('run-1', { message: 'again' });
    expect(res).toMatchObject({ data: {}, status: 200 });
  });

  it('cancelRun POSTs without a body and accepts a JSON string or an object', async () => {
    answer('POST', '/api/v1/agent/runs/run-1/cancel', 'run-1');
    await expect(h.client.cancelRun('run-1')).resolves.toBeUndefined();
    expect(seen[0]?.body).toBeUndefined();
    expect(seen[0]?.headers['content-type']).toBeUndefined();
    answer('POST', '/api/v1/agent/runs/run-1/cancel', 'run-1');
    expect((await h.client.withResponse.cancelRun('run-1')).data).toBe('run-1');
    answer('POST', '/api/v1/agent/runs/run-1/cancel', { run_id: 'run-1' });
    expect((await h.client.withResponse.cancelRun('run-1')).data).toEqual({ run_id: 'run-1' });
  });

  it('listFactories sends search and unwraps factories; getFactory encodes the uid', async () => {
    answer('GET', '/api/v1/factory?search=Docs+Team', {
      factories: [{ uid: 'f1', name: 'Docs team', alias: 'docs', members: 3 }],
    });
    const factories = await h.client.listFactories({ search: 'Docs Team' });
    expect(factories).toEqual([{ uid: 'f1', name: 'Docs team', alias: 'docs', members: 3 }]);
    answer('GET', '/api/v1/factory', { factories: [] });
    expect(await h.client.listFactories({})).toEqual([]);
    answer('GET', '/api/v1/factory/f%231', { uid: 'f#1', name: 'Hash', alias: null });
    expect(await h.client.getFactory('f#1')).toEqual({ uid: 'f#1', name: 'Hash', alias: null });
  });

  it('dispatchToFactory POSTs the ticket body', async () => {
    answer('POST', '/api/v1/factory/f1/runs', {
      run_id: 'run-5',
      state: 'QUEUED',
      run_url: 'https://x/r/5',
    });
    const body = {
      prompt: 'triage',
      title: 'Triage',
      ticket_ref: 'linear:ENG-1',
      ticket_url: 'https://t/ENG-1',
    };
    const res = await h.client.dispatchToFactory('f1', body);
    expect(res).toEqual({ run_id: 'run-5', state: 'QUEUED', run_url: 'https://x/r/5' });
    expect(seen[0]?.body).toEqual(body);
  });

  it('withResponse gives status, headers and parsed data', async () => {
    h.pool
      .intercept({ method: 'GET', path: '/api/v1/agent/runs/run-1' })
      .reply(200, runItem(), { headers: { ...JSON_HEADERS, 'x-trace-id': 't-1' } });
    const res = await h.client.withResponse.getRun('run-1');
    expect(res.status).toBe(200);
    expect(res.headers['x-trace-id']).toBe('t-1');
    expect(res.data.run_id).toBe('run-1');
  });

  it('a custom user agent replaces the default', async () => {
    await h.close();
    h = createHarness({ userAgent: 'relay-test/1' });
    answer('GET', '/api/v1/agent/runs/run-1', runItem());
    await h.client.getRun('run-1');
    expect(seen[0]?.headers['user-agent']).toBe('relay-test/1');
  });

  it('reports each attempt to onRequest with the route template', async () => {
    answer('GET', '/api/v1/agent/runs/run-7', runItem({ run_id: 'run-7' }));
    await h.client.getRun('run-7');
    expect(h.requests).toHaveLength(1);
    expect(h.requests[0]).toMatchObject({
      method: 'GET',
      route: 'GET /agent/runs/{runId}',
      status: 200,
      attempt: 0,
    });
    expect(h.requests[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(h.requests[0]?.error).toBeUndefined();
  });
});

describe('agent client: pagination', () => {
  it('runs.list follows next_cursor across three pages with the same filters', async () => {
    const pages: Record<string, unknown>[] = [
      {
        runs: [runItem({ run_id: 'a' }), runItem({ run_id: 'b' })],
        page_info: { has_next_page: true, next_cursor: 'c2' },
      },
      { runs: [runItem({ run_id: 'c' })], page_info: { has_next_page: true, next_cursor: 'c3' } },
      { runs: [runItem({ run_id: 'd' })], page_info: { has_next_page: false } },
    ];
    for (const page of pages) answer('GET', (p) => p.startsWith('/api/v1/agent/runs?'), page);
    const ids: string[] = [];
    for await (const run of h.client.runs.list({ state: ['QUEUED', 'INPROGRESS'], limit: 2 }))
      ids.push(run.run_id);
    expect(ids).toEqual(['a', 'b', 'c', 'd']);
    const queries = seen.map((s) => new URL(s.path, 'http://x').searchParams);
    expect(queries.map((q) => q.get('cursor'))).toEqual([null, 'c2', 'c3']);
    for (const q of queries) {
      expect(q.getAll('state')).toEqual(['QUEUED', 'INPROGRESS']);
      expect(q.get('limit')).toBe('2');
    }
  });

  it('stops when the service repeats a cursor', async () => {
    const page = { runs: [runItem()], page_info: { has_next_page: true, next_cursor: 'same' } };
    answer('GET', (p) => p.startsWith('/api/v1/agent/runs'), page);
    answer('GET', (p) => p.startsWith('/api/v1/agent/runs'), page);
    let count = 0;
    for await (const _run of h.client.runs.list()) count++;
    expect(count).toBe(2);
  });
});
