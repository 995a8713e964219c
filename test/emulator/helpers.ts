/**
 * Plain-fetch helpers for driving the emulator over loopback, and a manual clock so state
 * progression is deterministic (requests apply due transitions; the tick is set far away).
 */
import { currentPerTest } from '../helpers/world-per-test.js';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';

export interface ManualClock {
  now(): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function manualClock(start = Date.parse('2025-01-01T00:00:00.000Z')): ManualClock {
  let t = start;
  return {
    now: () => t,
    set: (ms) => void (t = ms),
    advance: (ms) => void (t += ms),
  };
}

export const TEST_TIMINGS = {
  queuedMs: 100,
  pendingMs: 100,
  claimedMs: 100,
  runMs: 1000,
  slowRunMs: 10_000,
};

export async function startTestEmulator(
  options: EmulatorOptions = {},
): Promise<{ emu: Emulator; clock: ManualClock; api: Api; close(): Promise<void> }> {
  const clock = manualClock();
  const emu = await startEmulator({ clock, tickMs: 60_000, timings: TEST_TIMINGS, ...options });
  return { emu, clock, api: createApi(emu.baseUrl, emu.apiKey), close: () => emu.close() };
}

export interface TestEmulator {
  readonly emu: Emulator;
  readonly clock: ManualClock;
  readonly api: Api;
}

/**
 * At a test file's top level: a fresh emulator (startTestEmulator) before each test, closed
 * after it. The returned object reads the current test's.
 */
export function emulatorPerTest(options: EmulatorOptions = {}): TestEmulator {
  return currentPerTest(
    'the emulator',
    () => startTestEmulator(options),
    (current) => current.emu.close(),
  );
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

export type Api = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<ApiResponse>;

/** `path` is relative to the base URL unless it starts with `http`. */
export function createApi(baseUrl: string, apiKey: string | undefined): Api {
  return async (method, path, body, headers = {}) => {
    const res = await fetch(path.startsWith('http') ? path : baseUrl + path, {
      method,
      headers: {
        ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}

export async function createRun(api: Api, body: Record<string, unknown>): Promise<string> {
  const res = await api('POST', '/agent/run', body);
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
  return (res.body as { run_id: string }).run_id;
}

export async function getState(api: Api, runId: string): Promise<string> {
  const res = await api('GET', `/agent/runs/${runId}`);
  return (res.body as { state: string }).state;
}
