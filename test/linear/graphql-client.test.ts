/**
 * The GraphQL call to Linear (through the SDK's client) against a real HTTP server on
 * loopback that answers as Linear does when things go wrong: each answer becomes the
 * DeliveryError the outbox acts on, and the token goes as Linear expects it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/core/ports/index.js';
import { createLinearGraphql } from '../../src/linear/api/graphql-client.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

async function answering(handler: Handler): Promise<string> {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

function json(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const linearError = (message: string, type: string) => ({
  errors: [{ message, extensions: { type, userPresentableMessage: message } }],
});

async function failure(apiUrl: string, timeoutMs?: number): Promise<DeliveryError> {
  const gql = createLinearGraphql({
    apiUrl,
    token: 'lin_oauth_dummy',
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  const err = await gql('query Q { viewer { id } }', {}).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DeliveryError);
  return err as DeliveryError;
}

describe('Linear GraphQL calls', () => {
  it('sends the query with the OAuth token as a Bearer and an API key bare', async () => {
    const seen: { auth?: string; body: unknown }[] = [];
    const url = await answering((req, res, body) => {
      seen.push({ auth: req.headers.authorization, body: JSON.parse(body) });
      json(res, 200, { data: { viewer: { id: 'app-user' } } });
    });
    const oauth = createLinearGraphql({ apiUrl: url, token: 'lin_oauth_dummy' });
    expect(await oauth('query Q($x: String) { viewer { id } }', { x: 'y' })).toEqual({
      viewer: { id: 'app-user' },
    });
    await createLinearGraphql({ apiUrl: url, token: 'lin_api_dummy' })(
      'query Q { viewer { id } }',
      {},
    );
    expect(seen.map((s) => s.auth)).toEqual(['Bearer lin_oauth_dummy', 'lin_api_dummy']);
    expect(seen[0]!.body).toEqual({
      query: 'query Q($x: String) { viewer { id } }',
      variables: { x: 'y' },
    });
  });

  it('a rate limit is retried after Retry-After; a 5xx and an unreachable API are retried', async () => {
    let next: Handler = (_req, res) =>
      json(res, 429, linearError('Rate limit exceeded', 'ratelimited'), { 'retry-after': '7' });
    const url = await answering((req, res, body) => next(req, res, body));
    expect(await failure(url)).toMatchObject({
      code: 'rate_limited',
      retryable: true,
      retryAfterMs: 7000,
    });
    next = (_req, res) => json(res, 503, linearError('Service unavailable', 'internal error'));
    expect(await failure(url)).toMatchObject({ code: 'unavailable', retryable: true });
    next = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    };
    expect(await failure(url)).toMatchObject({ code: 'unavailable', retryable: true });
    server!.closeAllConnections();
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    expect(await failure(url)).toMatchObject({ code: 'unavailable', retryable: true });
  });

  it('an answer that does not come within the timeout is retried', async () => {
    const url = await answering(() => {
      // never answers
    });
    expect(await failure(url, 200)).toMatchObject({ code: 'unavailable', retryable: true });
  });

  it('a refused token, a missing entity and bad input are permanent', async () => {
    let next: Handler = (_req, res) =>
      json(
        res,
        401,
        linearError('Authentication required, not authenticated', 'authentication error'),
      );
    const url = await answering((req, res, body) => next(req, res, body));
    expect(await failure(url)).toMatchObject({ code: 'forbidden', retryable: false });
    next = (_req, res) =>
      json(res, 200, linearError('Entity not found: AgentSession', 'invalid input'));
    expect(await failure(url)).toMatchObject({ code: 'not_found', retryable: false });
    next = (_req, res) => json(res, 200, linearError('content.type is required', 'invalid input'));
    expect(await failure(url)).toMatchObject({ code: 'invalid', retryable: false });
    next = (_req, res) => json(res, 400, linearError('Cannot query field "nope"', 'graphql error'));
    expect(await failure(url)).toMatchObject({ code: 'invalid', retryable: false });
  });

  it('will not send the token over plain HTTP to anything but loopback', async () => {
    const gql = createLinearGraphql({
      apiUrl: 'http://linear.example.com/graphql',
      token: 'lin_oauth_dummy',
    });
    await expect(gql('query Q { viewer { id } }', {})).rejects.toThrow(/HTTPS/);
  });
});
