/**
 * Shared set-up for the agent client tests: an undici MockAgent (no real network) passed as
 * the client's dispatcher, a recorded `sleep`, a fixed clock and real-shaped payloads.
 */
import { createServer } from 'node:net';
import { Agent, MockAgent, type Interceptable } from 'undici';
import {
  createAgentClient,
  type AgentClient,
  type AgentClientOptions,
} from '../../src/agent/index.js';
import type { AgentRequestInfo } from '../../src/agent/http.js';

export const ORIGIN = 'http://agent.test:8787';
export const BASE_URL = `${ORIGIN}/api/v1`;
export const API_KEY = 'sk-test-0123456789abcdef';
export const NOW = Date.parse('2025-06-01T12:00:00.000Z');

export interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface Harness {
  agent: MockAgent;
  pool: Interceptable;
  client: AgentClient;
  sleeps: number[];
  requests: AgentRequestInfo[];
  close(): Promise<void>;
}

export function createHarness(overrides: Partial<AgentClientOptions> = {}): Harness {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const sleeps: number[] = [];
  const requests: AgentRequestInfo[] = [];
  const client = createAgentClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    dispatcher: agent,
    random: () => 0,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    clock: { now: () => NOW },
    onRequest: (info) => requests.push(info),
    ...overrides,
  });
  return {
    agent,
    pool: agent.get(ORIGIN),
    client,
    sleeps,
    requests,
    close: () => agent.close(),
  };
}

/** Lower-cases header names of what undici handed the mock. */
export function headersOf(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, key) => (out[key] = value));
  } else if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2)
      out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
  } else if (headers && typeof headers === 'object') {
    for (const [key, value] of Object.entries(headers)) out[key.toLowerCase()] = String(value);
  }
  return out;
}

export function parseBody(body: unknown): unknown {
  if (body === undefined || body === null || body === '') return undefined;
  return JSON.parse(
    typeof body === 'string' ? body : Buffer.from(body as Uint8Array).toString('utf8'),
  );
}

export function runItem(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    run_id: 'run-1',
    title: 'Fix the typo',
    prompt: 'fix the typo in README',
    state: 'INPROGRESS',
    created_at: '2025-06-01T11:59:00Z',
    updated_at: '2025-06-01T11:59:30Z',
    started_at: null,
    creator: { uid: 'u1', display_name: 'Ada', type: 'user' },
    artifacts: [
      {
        artifact_type: 'PULL_REQUEST',
        created_at: '2025-06-01T11:59:20Z',
        data: { url: 'https://github.com/o/r/pull/7', branch: 'fix/typo' },
      },
    ],
    metadata: { relay_thread: 'slack:C1:1.2', relay_platform: 'slack' },
    ...overrides,
  };
}

export function problem(status: number, code: string, extra: Record<string, unknown> = {}) {
  return {
    type: `https://service.example/errors/${code}`,
    title: code.replaceAll('_', ' '),
    status,
    error: code,
    ...extra,
  };
}

export const PROBLEM_HEADERS = { 'content-type': 'application/problem+json' };
export const JSON_HEADERS = { 'content-type': 'application/json' };

/** A loopback port nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * A client of a service on loopback `port` over real sockets (its own dispatcher, which the
 * caller closes), recording its retry sleeps instead of sleeping.
 */
export function loopbackClient(
  port: number,
  options: Partial<AgentClientOptions> = {},
): { client: AgentClient; sleeps: number[]; dispatcher: Agent } {
  const dispatcher = new Agent();
  const sleeps: number[] = [];
  const client = createAgentClient({
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    apiKey: API_KEY,
    dispatcher,
    sleep: async (ms) => void sleeps.push(ms),
    ...options,
  });
  return { client, sleeps, dispatcher };
}
