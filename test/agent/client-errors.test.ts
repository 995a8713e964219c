import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentApiError } from '../../src/agent/index.js';
import { DeliveryError, isServiceError } from '../../src/core/ports/index.js';
import { RelayError } from '../../src/core/relay-error.js';
import {
  API_KEY,
  createHarness,
  JSON_HEADERS,
  PROBLEM_HEADERS,
  problem,
  runItem,
  type Harness,
} from './client-fixtures.js';
import { rejectionOf } from '../helpers/rejection.js';

let h: Harness;
beforeEach(() => {
  h = createHarness({ maxRetries: 0 });
});
afterEach(async () => {
  h.agent.assertNoPendingInterceptors();
  await h.close();
});

const RUN_PATH = '/api/v1/agent/runs/run-1';

function failWith(status: number, body: string, headers: Record<string, string> = PROBLEM_HEADERS) {
  h.pool.intercept({ method: 'GET', path: RUN_PATH }).reply(status, body, { headers });
}

const getRunError = () => rejectionOf(h.client.getRun('run-1'), AgentApiError);

describe('agent client: errors by status', () => {
  const table = [
    [400, 'bad_request', 'invalid_request'],
    [401, 'authentication', 'authentication_required'],
    [403, 'permission_denied', 'not_authorized'],
    [404, 'not_found', 'resource_not_found'],
    [409, 'conflict', 'conflict'],
    [422, 'unprocessable', 'operation_not_supported'],
    [429, 'rate_limit', 'resource_unavailable'],
    [500, 'internal_server', 'internal_error'],
    [502, 'internal_server', 'bad_gateway'],
    [503, 'internal_server', 'service_unavailable'],
  ] as const;

  it.each(table)('%i -> %o', async (status, code, serviceCode) => {
    failWith(status, JSON.stringify(problem(status, serviceCode, { detail: `detail ${status}` })));
    const err = await getRunError();
    // One class for every failure: callers switch on `code`, never on the class.
    expect(err.constructor).toBe(AgentApiError);
    expect(err.name).toBe('AgentApiError');
    expect(err).toBeInstanceOf(RelayError);
    expect(err.code).toBe(code);
    expect(err.status).toBe(status);
    expect(err.serviceCode).toBe(serviceCode);
    expect(err.detail).toBe(`detail ${status}`);
    expect(isServiceError(err)).toBe(true);
    expect(err.message).toContain(String(status));
    expect(err.message).toContain('GET /agent/runs/{runId}');
  });

  it('another 4xx is a generic AgentApiError of code bad_request', async () => {
    failWith(418, JSON.stringify(problem(418, 'teapot')));
    const err = await getRunError();
    expect(err.constructor).toBe(AgentApiError);
    expect(err).toMatchObject({
      code: 'bad_request',
      status: 418,
      serviceCode: 'teapot',
      retryable: false,
    });
  });

  it('kind, the former name of code, remains as a read-only alias', async () => {
    failWith(429, JSON.stringify(problem(429, 'resource_unavailable')));
    const err = await getRunError();
    expect(err.kind).toBe('rate_limit');
    expect(err.kind).toBe(err.code);
    expect(() => Object.assign(err, { kind: 'conflict' })).toThrow(TypeError);
  });

  it('a delivery error with the same code is not a service error', () => {
    expect(isServiceError(new DeliveryError('not_found', 'gone', false))).toBe(false);
  });

  it('retryable follows the status unless the problem body says otherwise', async () => {
    failWith(409, JSON.stringify(problem(409, 'conflict')));
    expect((await getRunError()).retryable).toBe(true);
    failWith(404, JSON.stringify(problem(404, 'resource_not_found')));
    expect((await getRunError()).retryable).toBe(false);
    failWith(500, JSON.stringify(problem(500, 'environment_setup_failed', { retryable: false })));
    expect((await getRunError()).retryable).toBe(false);
  });
});

describe('agent client: problem bodies', () => {
  it('parses the service code, detail, trace_id, retryable, retry-after and keeps headers and raw body', async () => {
    const body = JSON.stringify(
      problem(429, 'resource_unavailable', {
        detail: 'Capacity is full, try again soon',
        retryable: true,
        trace_id: 'trace-42',
        queue_position: 3,
      }),
    );
    failWith(429, body, { ...PROBLEM_HEADERS, 'retry-after': '7' });
    const err = await getRunError();
    expect(err).toMatchObject({ code: 'rate_limit' });
    expect(err).toMatchObject({
      code: 'rate_limit',
      serviceCode: 'resource_unavailable',
      detail: 'Capacity is full, try again soon',
      traceId: 'trace-42',
      retryable: true,
      retryAfterMs: 7000,
      rawBody: body,
    });
    expect(err.headers['retry-after']).toBe('7');
    expect(err.message).toContain('Capacity is full');
  });

  it('keeps an unknown error code as a string', async () => {
    failWith(403, JSON.stringify({ type: 'quota_of_the_future', status: 403, title: 'No' }));
    expect((await getRunError()).serviceCode).toBe('quota_of_the_future');
  });

  it('a body with ill-typed members keeps the well-typed ones', async () => {
    failWith(
      400,
      JSON.stringify({ type: 'invalid_request', status: '400', detail: 42, title: 'Bad prompt' }),
    );
    const err = await getRunError();
    expect(err).toMatchObject({ serviceCode: 'invalid_request', status: 400, detail: undefined });
    expect(err.message).toContain('Bad prompt');
  });

  it('a non-JSON error body still yields the typed error with status and raw text', async () => {
    failWith(502, '<html><body>Bad Gateway</body></html>', { 'content-type': 'text/html' });
    const err = await getRunError();
    expect(err).toMatchObject({ code: 'internal_server' });
    expect(err.status).toBe(502);
    expect(err.serviceCode).toBeUndefined();
    expect(err.rawBody).toBe('<html><body>Bad Gateway</body></html>');
    expect(err.message).toContain('Bad Gateway');
  });

  it('an empty error body still yields the typed error', async () => {
    failWith(404, '', {});
    const err = await getRunError();
    expect(err).toMatchObject({ code: 'not_found' });
    expect(err.rawBody).toBe('');
  });

  it('never puts the API key in a message', async () => {
    failWith(
      401,
      JSON.stringify(problem(401, 'authentication_required', { detail: `bad key ${API_KEY}` })),
    );
    const err = await getRunError();
    expect(err).toMatchObject({ code: 'authentication' });
    expect(err.message).not.toContain(API_KEY);
    expect(err.rawBody).not.toContain(API_KEY);
  });

  it.each([
    ['https://service.example/errors/resource_unavailable', 'resource_unavailable'],
    ['resource_unavailable', 'resource_unavailable'],
    ['https://service.example/errors/internal_error/', 'internal_error'],
    ['https://service.example/problems#budget_exceeded', 'budget_exceeded'],
    ['about:blank', undefined],
    [undefined, undefined],
  ])('a problem of type %s has the serviceCode %s', async (type, serviceCode) => {
    failWith(500, JSON.stringify({ ...(type === undefined ? {} : { type }), status: 500 }));
    expect((await getRunError()).serviceCode).toBe(serviceCode);
  });
});

describe('agent client: response validation', () => {
  it('a 2xx body failing the schema names the failing fields', async () => {
    h.pool
      .intercept({ method: 'GET', path: RUN_PATH })
      .reply(200, JSON.stringify(runItem({ state: 7, created_at: undefined })), {
        headers: JSON_HEADERS,
      });
    const err = await getRunError();
    expect(err).toMatchObject({ code: 'response_validation' });
    expect(err).toMatchObject({ code: 'response_validation', status: 200, retryable: false });
    expect(err.message).toMatch(/\bstate\b/);
    expect(err.message).toMatch(/\bcreated_at\b/);
    expect((err as AgentApiError).issues.map((i) => i.path).sort()).toEqual([
      'created_at',
      'state',
    ]);
  });

  it('a list item that does not parse is left out; the rest of the page is kept', async () => {
    const body = {
      runs: [runItem(), runItem({ run_id: '' })],
      page_info: { has_next_page: false },
    };
    h.pool
      .intercept({ method: 'GET', path: '/api/v1/agent/runs' })
      .reply(200, JSON.stringify(body));
    const page = await h.client.listRuns();
    expect(page.runs.map((r) => r.run_id)).toEqual([runItem().run_id]);
  });

  it('a list whose envelope does not parse is still a validation error naming the path', async () => {
    const body = { runs: [runItem()], page_info: { has_next_page: 'no' } };
    h.pool
      .intercept({ method: 'GET', path: '/api/v1/agent/runs' })
      .reply(200, JSON.stringify(body));
    const err = await h.client.listRuns().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'response_validation' });
    expect((err as Error).message).toContain('page_info.has_next_page');
  });

  it('a 2xx body that is not JSON is a validation error', async () => {
    h.pool.intercept({ method: 'GET', path: RUN_PATH }).reply(200, 'ok');
    const err = await getRunError();
    expect(err).toMatchObject({ code: 'response_validation' });
    expect(err.rawBody).toBe('ok');
  });
});

describe('agent client: 401 external_authentication_required', () => {
  it('carries the provider and the personal link, and prints the link nowhere', async () => {
    const link = 'https://auth.example.test/connect/linear?state=personal-1';
    failWith(
      401,
      JSON.stringify(
        problem(401, 'external_authentication_required', { provider: 'linear', auth_url: link }),
      ),
    );
    const err = await getRunError();
    expect(err).toMatchObject({
      code: 'authentication',
      serviceCode: 'external_authentication_required',
      provider: 'linear',
      authUrl: link,
    });
    expect(err.rawBody).toContain('[auth_url]');
    expect(err.rawBody).not.toContain('auth.example.test');
    expect(err.message).not.toContain('auth.example.test');
    expect(JSON.stringify(err)).not.toContain('auth.example.test');
  });
});
