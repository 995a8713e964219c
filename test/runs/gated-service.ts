/**
 * An engine whose Agent Run Service sits behind a gate (test/reliability/gate-proxy.ts), so a
 * test can hold the create call and look at what was shown before the service answered.
 * The gate starts frozen; `close` closes it (the engine goes with the test env it runs on).
 */
import { createAgentClient } from '../../src/agent/index.js';
import { startGate, type Gate } from '../reliability/gate-proxy.js';
import type { TestEngine, TestEnv } from './fixtures.js';

export async function startGatedEngine(
  env: TestEnv,
): Promise<{ gate: Gate; engine: TestEngine; close(): Promise<void> }> {
  const gate = await startGate(env.emulator.baseUrl);
  const agent = createAgentClient({
    baseUrl: gate.url,
    apiKey: env.emulator.apiKey,
    maxRetries: 0,
    timeoutMs: 10_000,
  });
  gate.freeze();
  return { gate, engine: env.makeEngine(env.store, { agent }), close: () => gate.close() };
}
