/**
 * The Slack Web API client's HTTP call on undici's `request` (request-fetch.ts), driven through
 * the real `WebClient` against a loopback server that answers as Slack can: each case is also
 * run with the built-in `fetch`, and both must give the client the same result or error.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webApi } from '@slack/bolt';
import { createRequestFetch } from '../../../src/slack/api/request-fetch.js';
import { createWebClient } from '../../../src/slack/api/web-client.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
  const method = (req.url ?? '').replace(/^\/api\//, '');
  const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(value));
  };
  switch (method) {
    case 'chat.postMessage':
      return json(
        200,
        { ok: true, ts: '1700000000.000100', channel: 'C1' },
        { 'x-oauth-scopes': 'chat:write' },
      );
    case 'chat.update':
      return json(200, { ok: false, error: 'message_not_found' });
    case 'reactions.add':
      return json(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '7' });
    case 'conversations.replies':
      res.writeHead(503, { 'content-type': 'text/plain' });
      return void res.end('upstream unavailable');
    case 'auth.test':
      res.writeHead(302, { location: 'https://elsewhere.example/' });
      return void res.end();
    case 'users.info':
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html>not json</html>');
    case 'team.info':
      // Longer than the client's timeout.
      setTimeout(() => json(200, { ok: true }), 1500).unref();
      return;
    default:
      return json(200, { ok: false, error: 'unknown_method' });
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

type Outcome = { result: Record<string, unknown> } | { code: string; detail: unknown };

async function outcome(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    const result = (await call()) as Record<string, unknown>;
    const { response_metadata, ...rest } = result;
    return { result: { ...rest, scopes: (response_metadata as { scopes?: string[] })?.scopes } };
  } catch (err) {
    const e = err as {
      code: string;
      data?: unknown;
      retryAfter?: number;
      statusCode?: number;
      body?: unknown;
    };
    return { code: e.code, detail: e.data ?? e.retryAfter ?? e.statusCode ?? null };
  }
}

/** The same client twice: ours (request-fetch) and one on the built-in fetch. */
function clients(timeoutMs = 10_000) {
  const ours = createWebClient({
    token: 'xoxb-test',
    apiUrl: base,
    logger: createRecordingLogger(),
    timeoutMs,
  });
  const builtIn = new webApi.WebClient('xoxb-test', {
    slackApiUrl: base,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: timeoutMs,
    allowAbsoluteUrls: false,
    logLevel: webApi.LogLevel.ERROR,
  });
  return { ours, builtIn };
}

describe('the Slack client on request-fetch', () => {
  const cases: [string, (c: InstanceType<typeof webApi.WebClient>) => Promise<unknown>][] = [
    [
      'a successful call',
      (c) =>
        c.chat.postMessage({
          channel: 'C1',
          text: 'hi ✓',
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*x*' } }],
        }),
    ],
    ['a platform error', (c) => c.chat.update({ channel: 'C1', ts: '1.2', text: 'x' })],
    [
      'a 429 with Retry-After',
      (c) => c.reactions.add({ channel: 'C1', timestamp: '1.2', name: 'eyes' }),
    ],
    ['a 503 with a text body', (c) => c.conversations.replies({ channel: 'C1', ts: '1.2' })],
    ['a redirect', (c) => c.auth.test()],
    ['a body that is not JSON', (c) => c.users.info({ user: 'U1' })],
  ];

  it.each(cases)(
    '%s reaches the caller as it does with the built-in fetch',
    async (_name, call) => {
      const { ours, builtIn } = clients();
      const expected = await outcome(() => call(builtIn));
      const actual = await outcome(() => call(ours));
      expect(actual).toEqual(expected);
    },
  );

  it('sends the same request as the built-in fetch: method, path, body, auth and content type', async () => {
    const { ours, builtIn } = clients();
    seen.length = 0;
    await builtIn.chat.postMessage({
      channel: 'C1',
      text: 'same',
      metadata: { event_type: 't', event_payload: { a: 1 } },
    });
    await ours.chat.postMessage({
      channel: 'C1',
      text: 'same',
      metadata: { event_type: 't', event_payload: { a: 1 } },
    });
    expect(seen).toHaveLength(2);
    const [a, b] = seen as [Seen, Seen];
    expect(b.method).toBe(a.method);
    expect(b.url).toBe(a.url);
    expect(b.body).toBe(a.body);
    expect(b.headers.authorization).toBe('Bearer xoxb-test');
    expect(b.headers['content-type']).toBe(a.headers['content-type']);
    expect(b.headers['user-agent']).toBe(a.headers['user-agent']);
  });

  it('gives up at the client timeout with a request error, as the built-in fetch does', async () => {
    const { ours, builtIn } = clients(200);
    const expected = await outcome(() => builtIn.team.info());
    const actual = await outcome(() => ours.team.info());
    expect(expected).toMatchObject({ code: 'slack_webapi_request_error' });
    expect(actual).toMatchObject({ code: 'slack_webapi_request_error' });
  });

  it('reports an unreachable Slack as a request error, as the built-in fetch does', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/api/`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = createWebClient({
      token: 'xoxb-test',
      apiUrl: url,
      logger: createRecordingLogger(),
    });
    await expect(client.chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      code: 'slack_webapi_request_error',
    });
  });

  it('hands a body it does not take (FormData) to the fallback fetch untouched', async () => {
    const calls: unknown[] = [];
    const fallback = (async (input: unknown, init?: RequestInit) => {
      calls.push([input, init?.body]);
      return new Response('{"ok":true}', { status: 200 });
    }) as typeof fetch;
    const requestFetch = createRequestFetch(fallback);
    const form = new FormData();
    form.set('file', 'content');
    const res = await requestFetch(`${base}files.upload`, {
      method: 'POST',
      body: form,
      redirect: 'error',
    });
    expect(calls).toEqual([[`${base}files.upload`, form]]);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('hands a call that wants redirects followed to the fallback fetch', async () => {
    const calls: unknown[] = [];
    const fallback = (async (input: unknown) => {
      calls.push(input);
      return new Response('{"ok":true}', { status: 200 });
    }) as typeof fetch;
    seen.length = 0;
    await createRequestFetch(fallback)(`${base}auth.test`, { method: 'POST', body: '' });
    expect(calls).toEqual([`${base}auth.test`]);
    expect(seen).toHaveLength(0); // nothing reached the server on our path
  });

  it('reads an answer once, as a Response does', async () => {
    const res = await createRequestFetch()(`${base}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      redirect: 'error',
    });
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toMatchObject({ ok: true, ts: '1700000000.000100' });
    await expect(res.text()).rejects.toThrow(TypeError);
  });
});
