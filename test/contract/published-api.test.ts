/**
 * The client against the emulator where the published description and our earlier reading of
 * it differ: the current create path, the metadata filter, child runs that inherit our stamp,
 * off-spec list items, a capacity 429 that still queues the run. One manual clock for both.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentClient, type AgentClient, type OffSpecRunItem } from '../../src/agent/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const TIMINGS = { queuedMs: 100, pendingMs: 100, claimedMs: 100, runMs: 1000, slowRunMs: 10_000 };

let emu: Emulator;
let client: AgentClient;
let now: number;
let sleeps: number[];
let skipped: OffSpecRunItem[];
const clock = { now: () => now };

function makeClient(maxRetries = 2): AgentClient {
  return createAgentClient({
    baseUrl: emu.baseUrl,
    apiKey: emu.apiKey,
    maxRetries,
    timeoutMs: 5000,
    clock,
    random: () => 0,
    sleep: async (ms) => void sleeps.push(ms),
    onOffSpecRunItem: (item) => void skipped.push(item),
  });
}

beforeEach(async () => {
  now = Date.parse('2025-03-01T12:00:00.000Z');
  sleeps = [];
  skipped = [];
  emu = await startEmulator({ clock, tickMs: 60_000, timings: TIMINGS });
  client = makeClient();
});
afterEach(() => emu.close());

describe('create', () => {
  it('uses the current path POST /agent/runs, never the deprecated POST /agent/run', async () => {
    await client.createRun({ prompt: 'p' });
    expect(emu.requests.get('POST /agent/runs')).toBe(1);
    expect(emu.requests.get('POST /agent/run')).toBe(0);
  });
});
