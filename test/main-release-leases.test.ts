/**
 * startService on SQLite releases the claims a crashed process left: a trigger the dead
 * process had claimed (120 s lease) is handled right after the restart, not after the lease.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import type { Logger } from '../src/core/ports/index.js';
import { startService } from '../src/main.js';
import { openStore } from '../src/store/index.js';
import { waitUntil } from './helpers/wait-until.js';
import { sampleTrigger } from './store/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-lease-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});

function recordingLogger() {
  const lines: { obj: Record<string, unknown>; msg?: string }[] = [];
  const at = (obj: object, msg?: string) =>
    void lines.push({ obj: obj as Record<string, unknown>, msg });
  const logger: Logger = { debug: at, info: at, warn: at, error: at, child: () => logger };
  return { logger, lines };
}

describe('startService after a crash (SQLite)', () => {
  it('takes the work a dead process had claimed at once', async () => {
    const databaseUrl = join(dir, 'crashed.db');
    const crashed = await openStore({ databaseUrl });
    const now = Date.now();
    await crashed.inbox.add(
      sampleTrigger({ deliveryId: 'Ev-crash', receivedAt: new Date(now).toISOString() }),
      now,
    );
    expect(await crashed.inboxQueue.claim(now, 120_000, 10)).toHaveLength(1);
    await crashed.close(); // the process dies holding the claim

    const { logger, lines } = recordingLogger();
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      EMULATOR_FAST: '1',
      POLL_INTERVAL_MS: '100',
    });
    expect(config.leaseMs).toBe(120_000);
    const service = await startService(config, { logger });
    running.push(service);
    await waitUntil(() => (service.emulator?.runs.count() ?? 0) === 1, { timeoutMs: 5_000 });
    const released = lines.find((l) => l.msg === 'released the claims a previous process left');
    expect(released?.obj).toEqual({ inbox: 1, outbox: 0 });
    const check = await openStore({ databaseUrl });
    try {
      await waitUntil(async () => (await check.inboxQueue.depth()) === 0, { timeoutMs: 5_000 });
    } finally {
      await check.close();
    }
    expect(service.emulator?.runs.count()).toBe(1);
  });
});
