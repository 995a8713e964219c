import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { createApi, startTestEmulator, type Api, type ApiResponse } from './helpers.js';

let emu: Emulator;
let api: Api;
beforeEach(async () => {
  ({ emu, api } = await startTestEmulator({ apiKey: 'secret-key' }));
});
afterEach(() => emu.close());

function expectProblem(res: ApiResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body.type).toMatch(new RegExp(`/${code}$`));
  expect(res.body.status).toBe(status);
  expect(typeof res.body.title).toBe('string');
  expect(typeof res.body.error).toBe('string');
  expect(typeof res.body.trace_id).toBe('string');
}

describe('bearer auth', () => {
  const routes: [string, string][] = [
    ['POST', '/agent/run'],
    ['POST', '/agent/runs'],
    ['GET', '/agent/runs'],
    ['GET', '/agent/runs/x'],
    ['POST', '/agent/runs/x/followups'],
    ['POST', '/agent/runs/x/cancel'],
    ['GET', '/factory'],
    ['GET', '/factory/factory-docs'],
    ['POST', '/factory/factory-docs/runs'],
  ];
  it.each(routes)('%s %s without a key answers 401', async (method, path) => {
    const res = await createApi(emu.baseUrl, undefined)(
      method,
      path,
      method === 'POST' ? {} : undefined,
    );
    expectProblem(res, 401, 'authentication_required');
    expect(res.body.retryable).toBe(false);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('rejects a wrong key and a non-bearer scheme', async () => {
    expectProblem(
      await createApi(emu.baseUrl, 'dev-key')('GET', '/agent/runs'),
      401,
      'authentication_required',
    );
    const basic = await api('GET', '/agent/runs', undefined, {
      authorization: 'Basic c2VjcmV0LWtleQ==',
    });
    expectProblem(basic, 401, 'authentication_required');
    expect(emu.runs.count()).toBe(0);
  });

  it('accepts the right key', async () => {
    expect((await api('GET', '/agent/runs')).status).toBe(200);
  });

  it('guards the admin surface with the same key', async () => {
    expect((await createApi(emu.url, undefined)('GET', '/_emulator/stats')).status).toBe(401);
    expect((await createApi(emu.url, 'secret-key')('GET', '/_emulator/stats')).status).toBe(200);
  });
});

describe('bad input never crashes', () => {
  it('answers unknown routes with a 404 problem, inside and outside /api/v1', async () => {
    expectProblem(await api('GET', '/nope'), 404, 'resource_not_found');
    expectProblem(await api('GET', `${emu.url}/elsewhere`), 404, 'resource_not_found');
    expect(emu.requests.get('unmatched')).toBe(1);
  });

  it('answers a wrong method with 405 and Allow-like detail', async () => {
    const res = await api('DELETE', '/agent/runs');
    expect(res.status).toBe(405);
    expect(res.body.detail).toMatch(/GET/);
  });

  it('rejects malformed JSON, non-object bodies and oversized bodies', async () => {
    expectProblem(await api('POST', '/agent/run', '{"prompt": '), 400, 'invalid_request');
    expectProblem(await api('POST', '/agent/run', '[1,2]'), 400, 'invalid_request');
    expectProblem(await api('POST', '/agent/run', 'null'), 400, 'invalid_request');
    const huge = JSON.stringify({ prompt: 'x'.repeat(1024 * 1024 + 10) });
    expect((await api('POST', '/agent/run', huge)).status).toBe(413);
    expect((await api('GET', '/agent/runs')).status).toBe(200);
  });

  it('survives a malformed percent-encoding and a garbage request line', async () => {
    expect((await api('GET', '/agent/runs/%E0%A4%A')).status).toBe(404);
    const reply = await new Promise<string>((resolve) => {
      const url = new URL(emu.url);
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.write('NOT HTTP AT ALL\r\n\r\n'),
      );
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', () => resolve(data));
    });
    expect(reply).toMatch(/^HTTP\/1.1 400/);
    expect((await api('GET', '/agent/runs')).status).toBe(200);
  });
});
