import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/service/logger.js';
import { createMetrics } from '../../src/service/metrics.js';
import { opsRoutes } from '../../src/service/ops-routes.js';
import { createServer } from '../../src/service/http-server.js';
import type { HttpServer } from '../../src/service/http-server.js';

const servers: HttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close(100)));
});

async function start(checks: Parameters<typeof opsRoutes>[0]['checks']) {
  const m = createMetrics({ defaultMetrics: false });
  m.metrics.set('outbox_depth', 4);
  const server = createServer({
    routes: opsRoutes({ checks, metrics: m.render, checkTimeoutMs: 100 }),
    logger: silentLogger(),
  });
  servers.push(server);
  return (await server.listen(0, '127.0.0.1')).url;
}

describe('opsRoutes', () => {
  it('/healthz answers while the process lives, whatever the checks say', async () => {
    const url = await start([{ name: 'database', check: () => Promise.reject(new Error('x')) }]);
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz is 200 when every check passes', async () => {
    const url = await start([
      { name: 'database', check: async () => {} },
      { name: 'workers', check: async () => {} },
    ]);
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', workers: 'ok' },
    });
  });

  it('/readyz is 503 naming the failing, refusing and hanging checks', async () => {
    const url = await start([
      { name: 'database', check: () => Promise.reject(new Error('SQLITE_CANTOPEN')) },
      { name: 'workers', check: async () => 'stopped' },
      { name: 'slow', check: () => new Promise(() => {}) },
      { name: 'fine', check: async () => {} },
    ]);
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      checks: {
        database: 'SQLITE_CANTOPEN',
        workers: 'stopped',
        slow: 'no answer within 100 ms',
        fine: 'ok',
      },
    });
  });

  it('/metrics serves the Prometheus text format', async () => {
    const url = await start([]);
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toContain('agent_relay_outbox_depth 4');
  });
});
