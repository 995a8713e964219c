import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StartupError } from '../src/service/agent-key-check.js';
import { loadConfig } from '../src/config/load.js';
import { FAST_TIMINGS, startEmulator } from '../src/emulator/index.js';
import type { Emulator } from '../src/emulator/index.js';
import { startService } from '../src/main.js';
import { openStore } from '../src/store/index.js';
import { createRecordingLogger } from './helpers/test-logger.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-main-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});

let n = 0;
function config(extra: Record<string, string> = {}) {
  n += 1;
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: join(dir, `main-${n}.db`),
    EMULATOR_FAST: '1',
    POLL_INTERVAL_MS: '100',
    ...extra,
  });
}

async function start(cfg = config(), opts: Parameters<typeof startService>[1] = {}) {
  const service = await startService(cfg, opts);
  running.push(service);
  return service;
}

describe('startService', () => {
  it('binds port 0, embeds the emulator, and is ready', async () => {
    const logger = createRecordingLogger();
    const { lines } = logger;
    const service = await start(config(), { logger });
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(service.port).toBeGreaterThan(0);
    expect(service.agentUrl).toBe(service.emulator?.baseUrl);
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    const block = lines.find((l) => l.msg?.startsWith('agent-relay is listening on'));
    expect(block?.obj).toMatchObject({ url: service.url, slack: 'off', github: 'off' });
    expect(block?.msg).toContain('embedded emulator at');
  });

  it('/metrics exposes the named series', async () => {
    const service = await start();
    const body = await (await fetch(`${service.url}/metrics`)).text();
    const series = [
      'triggers_received_total counter',
      'duplicates_dropped_total counter',
      'runs_created_total counter',
      'followups_sent_total counter',
      'cancels_total counter',
      'service_requests_total counter',
      'service_request_duration_seconds histogram',
      'tracker_cycle_seconds histogram',
      'live_runs_tracked gauge',
      'outbox_depth gauge',
      'inbox_depth gauge',
      'outbox_delivered_total counter',
      'outbox_delivery_failures_total counter',
      'trigger_to_ack_seconds histogram',
      'state_change_to_notification_seconds histogram',
      'http_requests_total counter',
    ];
    for (const s of series) expect(body).toContain(`# TYPE agent_relay_${s}`);
    expect(body).toContain('process_cpu_user_seconds_total');
  });

  it('counts accepted triggers by platform and kind, and duplicates apart', async () => {
    const service = await start();
    const trigger = {
      platform: 'slack' as const,
      kind: 'mention' as const,
      threadKey: 'slack:T1:C1:1700000000.000100',
      actor: { id: 'U1' },
      text: 'help',
      addressed: true,
      context: {},
      deliveryId: 'Ev-metrics-1',
      receivedAt: new Date().toISOString(),
      settingsScope: 'slack:T1:C1',
    };
    expect(await service.sink.accept(trigger)).toBe('accepted');
    expect(await service.sink.accept(trigger)).toBe('duplicate');
    const body = await (await fetch(`${service.url}/metrics`)).text();
    expect(body).toContain(
      'agent_relay_triggers_received_total{platform="slack",kind="mention"} 1',
    );
    expect(body).toContain(
      'agent_relay_duplicates_dropped_total{platform="slack",kind="mention"} 1',
    );
  });

  it.each([
    { reason: 'rate_limit', answer: '429 with Retry-After' },
    { reason: 'at_capacity', answer: 'at_capacity: true' },
  ])(
    '/metrics shows the pause of all claiming after a create answered $answer',
    async ({ reason }) => {
      const service = await start();
      const emulator = service.emulator!;
      // The client retries a 429 twice itself (after Retry-After) before the engine pauses.
      if (reason === 'rate_limit') {
        emulator.faults.failNext(3, 429, { route: 'POST /agent/runs', retryAfterSeconds: 1 });
      } else {
        emulator.faults.atCapacityNext(1);
      }
      const scrape = async () => {
        const body = await (await fetch(`${service.url}/metrics`)).text();
        const seconds = /^agent_relay_claiming_paused_seconds (\S+)$/m.exec(body)?.[1];
        return { body, seconds: Number(seconds) };
      };
      const counted = `agent_relay_claiming_paused_total{reason="${reason}"} 1`;
      expect((await scrape()).seconds).toBe(0);
      expect((await scrape()).body).not.toContain(counted);
      await service.sink.accept({
        platform: 'slack',
        kind: 'mention',
        threadKey: `slack:T1:C1:1700000000.00020${reason.length}`,
        actor: { id: 'U1' },
        text: 'fix the flaky test',
        addressed: true,
        context: {},
        deliveryId: `Ev-pause-${reason}`,
        receivedAt: new Date().toISOString(),
        settingsScope: 'slack:T1:C1',
      });
      let seen = await scrape();
      for (let i = 0; i < 200 && !seen.body.includes(counted); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        seen = await scrape();
      }
      expect(seen.body).toContain(counted);
      // The pause the service asked for: Retry-After's second, or a second after at_capacity.
      expect(seen.seconds).toBeGreaterThan(0);
      expect(seen.seconds).toBeLessThanOrEqual(1);
      expect(emulator.requests.get('POST /agent/runs')).toBe(reason === 'rate_limit' ? 3 : 1);
    },
  );

  it('the embedded emulator serves runs through the agent client', async () => {
    const service = await start();
    const created = await service.agent.createRun({ prompt: 'hello' });
    expect(created.run_id).toBeTruthy();
    const page = await service.agent.listRuns({ limit: 5 });
    expect(page.runs.map((r) => r.run_id)).toContain(created.run_id);
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toMatch(
      /agent_relay_service_requests_total\{method="POST",endpoint="POST \/agent\/run[s]?",status="200"\} 1/,
    );
  });

  it('/readyz turns 503 when the database stops answering', async () => {
    const service = await start();
    await service.store.close();
    const res = await fetch(`${service.url}/readyz`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(body.checks.database).not.toBe('ok');
    expect(body.checks.workers).toBe('ok');
  });

  it('stop() closes the server and the database, and is idempotent', async () => {
    const service = await start();
    await Promise.all([service.stop(), service.stop()]);
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
    await expect(service.store.ping()).rejects.toThrow();
  });
});

describe('startService with AGENT_API_URL', () => {
  let emulator: Emulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  it('checks the key: a 401 is a StartupError with a one-line message', async () => {
    emulator = await startEmulator({ apiKey: 'the-right-key', timings: FAST_TIMINGS });
    const cfg = config({ AGENT_API_URL: emulator.baseUrl, AGENT_API_KEY: 'a-wrong-key' });
    const error = await startService(cfg).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(StartupError);
    expect(error).toMatchObject({ code: 'agent_key_rejected' });
    const message = (error as Error).message;
    expect(message).toContain(`AGENT_API_KEY was rejected by ${emulator.baseUrl} (401)`);
    expect(message).not.toContain('a-wrong-key');
    expect(message).not.toContain('\n');
    // Nothing was left open: the database can be opened and closed again.
    const store = await openStore({ databaseUrl: cfg.databaseUrl });
    await store.close();
  });

  it('uses the real service when the key is accepted', async () => {
    emulator = await startEmulator({ apiKey: 'k', timings: FAST_TIMINGS });
    const service = await start(config({ AGENT_API_URL: emulator.baseUrl, AGENT_API_KEY: 'k' }));
    expect(service.emulator).toBeUndefined();
    expect(service.agentUrl).toBe(emulator.baseUrl);
    await service.agent.createRun({ prompt: 'through the real client' });
    expect(emulator.runs.count()).toBe(1);
  });

  it('a key accepted by a team out of credits is a warning naming the code, not a failure', async () => {
    emulator = await startEmulator({ apiKey: 'k', timings: FAST_TIMINGS });
    emulator.faults.failNext(1, 403, {
      route: 'GET /agent/runs',
      errorCode: 'insufficient_credits',
    });
    const logger = createRecordingLogger();
    const { lines } = logger;
    const service = await start(config({ AGENT_API_URL: emulator.baseUrl, AGENT_API_KEY: 'k' }), {
      logger,
    });
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    expect(
      lines.some((l) => l.level === 'warn' && l.msg?.includes('403 insufficient_credits')),
    ).toBe(true);
  });

  it('an unreachable service is a warning, not a failure', async () => {
    const port = await closedPort();
    const logger = createRecordingLogger();
    const { lines } = logger;
    const service = await start(
      config({ AGENT_API_URL: `http://127.0.0.1:${port}/api/v1`, AGENT_API_KEY: 'k' }),
      { logger },
    );
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    expect(lines.some((l) => l.level === 'warn' && l.msg?.includes('did not answer'))).toBe(true);
  });
});

describe('startService failures', () => {
  it('a port in use is a StartupError naming the address', async () => {
    const first = await start();
    const error = await startService(config({ PORT: String(first.port) })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'listen_failed' });
    expect((error as Error).message).toBe(
      `cannot listen on 127.0.0.1:${first.port}: the port is in use (EADDRINUSE); stop what ` +
        'holds it, or set PORT to another port (PORT=0 takes any free one)',
    );
  });

  it('an unusable database is a StartupError', async () => {
    const error = await startService(
      config({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/x' }),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'database_unavailable' });
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
