/**
 * The one HTTP server. It routes by path, reads each body once (up to its route's limit,
 * 413 beyond it, checked while reading), gives a client seconds, not minutes, to send its
 * headers and its whole request and hands it to the route (also as `req.rawBody`, which Bolt's receiver reuses),
 * answers 404/405 for what it does not serve, logs every request at debug with its latency,
 * and drains on close: no new requests, in-flight ones finish (bounded). On Linux it listens
 * with several sockets on the one port (LISTENERS), so a burst of new connections is accepted
 * several to a turn of the event loop.
 */
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { SMALL_BODY_LIMIT_BYTES } from '../core/ingress/body-limit.js';
import { DEFAULT_SECURITY_HEADERS } from '../core/ingress/security-headers.js';
import type { Logger, Platform } from '../core/ports/index.js';
import type { Route } from '../platform/route.js';

export type { Route, RouteHandler } from '../platform/route.js';

export interface HttpRequestInfo {
  method: string;
  /** The matched route's path, or `unmatched`. */
  route: string;
  /** The platform that waits on the matched route's answer (`Route.acknowledges`). */
  acknowledges?: Platform;
  status: number;
  durationMs: number;
}

export interface HttpServerOptions {
  routes: readonly Route[];
  logger: Logger;
  /** Largest body a route without its own limit reads; default 64 KiB. */
  bodyLimitBytes?: number;
  /** Time a client has to send the request's headers; default HEADERS_TIMEOUT_MS. */
  headersTimeoutMs?: number;
  /** Time a client has to send the whole request; default REQUEST_TIMEOUT_MS. */
  requestTimeoutMs?: number;
  /** Called when each response ends (metrics). */
  onRequest?: (info: HttpRequestInfo) => void;
  /** Epoch ms for latency; default Date.now. */
  now?: () => number;
  /** Listening sockets sharing the port (Linux only; default LISTENERS). */
  listeners?: number;
}

export interface HttpServer {
  readonly server: Server;
  listen(port: number, host: string): Promise<{ url: string; port: number }>;
  /** Stop accepting, let in-flight requests finish for up to `graceMs`, then close. */
  close(graceMs: number): Promise<void>;
  inFlight(): number;
  readonly draining: boolean;
}

export const DEFAULT_BODY_LIMIT = SMALL_BODY_LIMIT_BYTES;
/**
 * Slack wants an answer within 3 s and GitHub within 10 s of sending, so no real request
 * takes longer to arrive; a client that trickles its headers or body is cut off, and its
 * buffered bytes freed, after these.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Listening sockets sharing the port (SO_REUSEPORT; Linux only, where Node supports it).
 * libuv accepts one connection per turn of the event loop and socket, and under load a turn
 * takes tens of milliseconds: a burst of new connections (a proxy's, the platform's sender
 * opening more when answers slow down) waited seconds in one socket's accept queue before the
 * acknowledgement could even begin (docs/decisions/acknowledgement-latency.md).
 */
export const LISTENERS = process.platform === 'linux' ? 8 : 1;
/** How often Node checks the two timeouts (its default, 30 s, would let them run long). */
const TIMEOUT_CHECK_MS = 1_000;

export function createServer(options: HttpServerOptions): HttpServer {
  const { logger, routes } = options;
  const limit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const now = options.now ?? Date.now;
  const byPath = new Map(routes.map((r) => [r.path, r]));
  const byPrefix = routes.filter((r) => r.prefix);
  const match = (path: string) =>
    byPath.get(path) ?? byPrefix.find((r) => path.startsWith(`${r.path}/`));
  let inFlight = 0;
  let draining = false;
  const idle: (() => void)[] = [];

  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const started = now();
    const method = req.method ?? 'GET';
    const path = pathOf(req.url);
    const route = path === undefined ? undefined : match(path);
    inFlight++;
    // Every answer carries them; a route's own (the console's policy) replace them.
    for (const [name, value] of Object.entries(DEFAULT_SECURITY_HEADERS))
      res.setHeader(name, value);
    res.on('close', () => {
      inFlight--;
      const info = { method, route: route?.path ?? 'unmatched', status: res.statusCode };
      const durationMs = now() - started;
      logger.debug({ ...info, path, durationMs }, 'http request');
      options.onRequest?.({
        ...info,
        ...(route?.acknowledges ? { acknowledges: route.acknowledges } : {}),
        durationMs,
      });
      if (inFlight === 0) idle.splice(0).forEach((f) => f());
    });
    if (draining) return reply(res, 503, { error: 'shutting_down' }, { connection: 'close' });
    if (!route) return reply(res, 404, { error: 'not_found' });
    if (!route.methods.includes(method))
      return reply(res, 405, { error: 'method_not_allowed' }, { allow: route.methods.join(', ') });
    void serve(route, req, res);
  };
  const makeServer = (): Server => {
    const made = createHttpServer(
      {
        headersTimeout: Math.min(options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout),
        requestTimeout,
        connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, requestTimeout),
      },
      handle,
    );
    made.keepAliveTimeout = 5_000;
    return made;
  };
  const listeners = options.listeners ?? LISTENERS;
  const servers = Array.from({ length: listeners }, makeServer);
  const server = servers[0]!;

  async function serve(route: Route, req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const bound = route.bodyLimitBytes ?? limit;
      const body = await readBody(req, bound);
      if (body === 'too_large') {
        reply(res, 413, { error: 'payload_too_large', limitBytes: bound }, { connection: 'close' });
        return;
      }
      (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
      await route.handler(req, res, body);
    } catch (err) {
      logger.error({ err, route: route.path }, 'request handler failed');
      if (!res.headersSent) reply(res, 500, { error: 'internal_error' });
      else res.end();
    }
  }

  return {
    server,
    get draining() {
      return draining;
    },
    inFlight: () => inFlight,
    async listen(port, host) {
      if (servers.length === 1) {
        const bound = await listenOn(server, { port, host });
        return { url: `http://${urlHost(host)}:${bound}`, port: bound };
      }
      // The port must be free (a plain bind says so even when another process's listeners
      // share one among themselves); then every listener binds it, sharing it.
      const probe = createNetServer();
      const free = await listenOn(probe, { port, host });
      await closeListener(probe);
      try {
        for (const each of servers) await listenOn(each, { port: free, host, reusePort: true });
      } catch (err) {
        // Taken in between: leave nothing bound behind the error.
        await Promise.all(servers.filter((each) => each.listening).map(closeListener));
        throw err;
      }
      return { url: `http://${urlHost(host)}:${free}`, port: free };
    },
    async close(graceMs) {
      draining = true;
      // Resolves once every listener is closed and its last connection gone.
      const closed = Promise.all(servers.map(closeListener));
      for (const each of servers) each.closeIdleConnections();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          idle.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      for (const each of servers) each.closeAllConnections();
      await closed;
    },
  };
}

/** Stops `target` listening; resolves when its connections are gone (at once if it never listened). */
function closeListener(target: Server | NetServer): Promise<void> {
  return new Promise((resolve) => target.close(() => resolve()));
}

/** Binds `target` and resolves with the port it got. */
function listenOn(
  target: Server | NetServer,
  where: { port: number; host: string; reusePort?: boolean },
): Promise<number> {
  return new Promise((resolve, reject) => {
    target.once('error', reject);
    target.listen(where, () => {
      target.off('error', reject);
      resolve((target.address() as AddressInfo).port);
    });
  });
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.resolve('too_large');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        resolve('too_large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (!done) reject(err);
    });
  });
}

export function reply(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function pathOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
