import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, reply } from '../../src/service/http-server.js';
import type { HttpRequestInfo, HttpServer, Route } from '../../src/service/http-server.js';
import { createRecordingLogger, type LogLine } from '../helpers/test-logger.js';

const servers: HttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close(100)));
});

async function start(routes: Route[], bodyLimitBytes?: number) {
  const lines: LogLine[] = [];
  const requests: HttpRequestInfo[] = [];
  const server = createServer({
    routes,
    logger: createRecordingLogger(lines),
    bodyLimitBytes,
    onRequest: (info) => requests.push(info),
  });
  servers.push(server);
  const { url } = await server.listen(0, '127.0.0.1');
  return { server, url, lines, requests };
}

const echo: Route = {
  path: '/echo',
  methods: ['POST'],
  handler: (req, res, body) => {
    const rawBody = (req as typeof req & { rawBody?: Buffer }).rawBody;
    reply(res, 200, { length: body.length, same: rawBody === body, text: body.toString() });
  },
};

describe('createServer', () => {
  it('hands the raw body to the route, also as req.rawBody', async () => {
    const { url } = await start([echo]);
    const res = await fetch(`${url}/echo?x=1`, { method: 'POST', body: 'a=1&b=2' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ length: 7, same: true, text: 'a=1&b=2' });
  });

  it('answers 404 for unknown routes and 405 for the wrong method', async () => {
    const { url } = await start([echo]);
    const missing = await fetch(`${url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'not_found' });
    const wrong = await fetch(`${url}/echo`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('serves the paths below a prefix route, and only those', async () => {
    const tree: Route = {
      path: '/tree',
      methods: ['GET'],
      prefix: true,
      handler: (req, res) => reply(res, 200, { url: req.url }),
    };
    const { url, requests } = await start([echo, tree]);
    expect(await (await fetch(`${url}/tree`)).json()).toEqual({ url: '/tree' });
    expect(await (await fetch(`${url}/tree/a/b?c=1`)).json()).toEqual({ url: '/tree/a/b?c=1' });
    expect((await fetch(`${url}/treehouse`)).status).toBe(404);
    expect((await fetch(`${url}/echo/below`)).status).toBe(404);
    expect(requests.map((r) => r.route)).toEqual(['/tree', '/tree', 'unmatched', 'unmatched']);
  });

  it('answers 413 beyond the body limit, declared or streamed', async () => {
    const { url } = await start([echo], 1024);
    const declared = await fetch(`${url}/echo`, { method: 'POST', body: 'x'.repeat(2048) });
    expect(declared.status).toBe(413);

    const streamed = await new Promise<number>((resolve, reject) => {
      const req = request(`${url}/echo`, { method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('y'.repeat(800));
      setTimeout(() => req.end('y'.repeat(800)), 20);
    });
    expect(streamed).toBe(413);

    const within = await fetch(`${url}/echo`, { method: 'POST', body: 'z'.repeat(1024) });
    expect(within.status).toBe(200);
  });

  it('logs every request at debug with its latency and reports it', async () => {
    const { url, lines, requests } = await start([echo]);
    await (await fetch(`${url}/echo`, { method: 'POST', body: 'hi' })).text();
    await (await fetch(`${url}/missing`)).text();
    await new Promise((r) => setTimeout(r, 20));
    const logged = lines.filter((l) => l.level === 'debug' && l.msg === 'http request');
    expect(logged.map((l) => [l.obj.path, l.obj.status])).toEqual([
      ['/echo', 200],
      ['/missing', 404],
    ]);
    for (const l of logged) expect(typeof l.obj.durationMs).toBe('number');
    expect(requests.map((r) => r.route)).toEqual(['/echo', 'unmatched']);
  });

  it('turns a throwing handler into a 500 and logs it', async () => {
    const boom: Route = {
      path: '/boom',
      methods: ['GET'],
      handler: () => {
        throw new Error('kaput');
      },
    };
    const { url, lines } = await start([boom]);
    const res = await fetch(`${url}/boom`);
    expect(res.status).toBe(500);
    expect(lines.some((l) => l.level === 'error')).toBe(true);
  });

  it('on close stops accepting but lets an in-flight request finish', async () => {
    let release: () => void = () => {};
    const slow: Route = {
      path: '/slow',
      methods: ['GET'],
      handler: async (_req, res) => {
        await new Promise<void>((r) => (release = r));
        reply(res, 200, { done: true });
      },
    };
    const { server, url } = await start([slow]);
    const inFlight = fetch(`${url}/slow`).then(async (r) => [r.status, await r.json()]);
    await new Promise((r) => setTimeout(r, 30));
    expect(server.inFlight()).toBe(1);
    const closing = server.close(5_000);
    await new Promise((r) => setTimeout(r, 30));
    expect(server.draining).toBe(true);
    await expect(fetch(`${url}/slow`)).rejects.toThrow();
    release();
    expect(await inFlight).toEqual([200, { done: true }]);
    await closing;
    expect(server.server.listening).toBe(false);
  });

  it('bounds the wait for in-flight requests', async () => {
    const stuck: Route = { path: '/stuck', methods: ['GET'], handler: () => new Promise(() => {}) };
    const { server, url } = await start([stuck]);
    const pending = fetch(`${url}/stuck`).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 30));
    const t0 = Date.now();
    await server.close(150);
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe.skipIf(process.platform !== 'linux')(
  'listening sockets that share the port (Linux)',
  () => {
    const quiet = () => createRecordingLogger([]);
    /** A request on a connection of its own (no keep-alive): the kernel picks the listener. */
    const once = (port: number) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/echo', method: 'POST', agent: false },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end('hi');
      });

    it('every listener serves the routes: new connections are spread over them', async () => {
      const server = createServer({ routes: [echo], logger: quiet(), listeners: 4 });
      servers.push(server);
      const { port } = await server.listen(0, '127.0.0.1');
      let onFirst = 0;
      server.server.on('connection', () => (onFirst += 1));
      const statuses = await Promise.all(Array.from({ length: 40 }, () => once(port)));
      expect(statuses).toEqual(Array.from({ length: 40 }, () => 200));
      // The first listener got some of them, not all: the other three accept too.
      expect(onFirst).toBeGreaterThan(0);
      expect(onFirst).toBeLessThan(40);
    });

    it('refuses a port that is taken, even by listeners that share theirs', async () => {
      const first = createServer({ routes: [echo], logger: quiet(), listeners: 4 });
      servers.push(first);
      const { port } = await first.listen(0, '127.0.0.1');
      for (const listeners of [4, 1]) {
        const second = createServer({ routes: [echo], logger: quiet(), listeners });
        await expect(second.listen(port, '127.0.0.1')).rejects.toMatchObject({
          code: 'EADDRINUSE',
        });
      }
      expect(await once(port)).toBe(200);
    });

    it('closes every listener: the port is free afterwards', async () => {
      const server = createServer({ routes: [echo], logger: quiet(), listeners: 4 });
      const { port } = await server.listen(0, '127.0.0.1');
      await server.close(100);
      await expect(once(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      const again = createServer({ routes: [echo], logger: quiet(), listeners: 1 });
      servers.push(again);
      await expect(again.listen(port, '127.0.0.1')).resolves.toMatchObject({ port });
    });
  },
);
