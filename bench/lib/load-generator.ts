/**
 * An open-loop load generator: request i is due at start + i/rate whatever happened to the
 * earlier ones (no coordinated omission), and its latency is measured from when it was due,
 * so a server that falls behind shows it. Requests go through an undici Pool on loopback.
 */
import { Pool } from 'undici';
import type { PayloadFactory, Platform } from './payloads.js';

export interface LoadOptions {
  url: string;
  /** Requests per second. */
  rate: number;
  durationMs: number;
  makeRequest: PayloadFactory;
  timeoutMs?: number;
  connections?: number;
  /** Requests outstanding at once before the generator counts new ones as errors. */
  maxInFlight?: number;
}

export interface AcceptedSend {
  platform: Platform;
  threadRef: string;
  /** Epoch ms when the request was due. */
  dueAt: number;
}

export interface LoadRun {
  offeredRate: number;
  durationMs: number;
  sent: number;
  ok: number;
  /** Error counts by HTTP status or error code. */
  errors: Record<string, number>;
  /** Successful responses per second over the time from the first send to the last answer. */
  achievedRate: number;
  /** Latency (ms from due to full response) of each 2xx answer, by platform. */
  latency: Record<Platform, number[]>;
  accepted: AcceptedSend[];
}

export async function runOpenLoop(options: LoadOptions): Promise<LoadRun> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const pool = new Pool(options.url, {
    connections: options.connections ?? 256,
    pipelining: 1,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 30_000,
  });
  const maxInFlight = options.maxInFlight ?? 5_000;
  const total = Math.max(1, Math.round((options.rate * options.durationMs) / 1000));
  const gap = 1000 / options.rate;
  const run: LoadRun = {
    offeredRate: options.rate,
    durationMs: options.durationMs,
    sent: 0,
    ok: 0,
    errors: {},
    achievedRate: 0,
    latency: { slack: [], github: [] },
    accepted: [],
  };
  const fail = (key: string): void => {
    run.errors[key] = (run.errors[key] ?? 0) + 1;
  };
  const inFlight = new Set<Promise<void>>();
  let lastAnswer = 0;

  const fire = (i: number, due: number) => {
    if (inFlight.size >= maxInFlight) {
      fail('client_saturated');
      return;
    }
    const req = options.makeRequest(i);
    run.sent += 1;
    const p = pool
      .request({ method: 'POST', path: req.path, headers: req.headers, body: req.body })
      .then(async (res) => {
        await res.body.dump();
        const end = performance.now();
        lastAnswer = Math.max(lastAnswer, end);
        if (res.statusCode >= 200 && res.statusCode < 300) {
          run.ok += 1;
          run.latency[req.platform].push(end - due);
          run.accepted.push({
            platform: req.platform,
            threadRef: req.threadRef,
            dueAt: performance.timeOrigin + due,
          });
        } else {
          fail(`http_${res.statusCode}`);
        }
      })
      .catch((err: unknown) => fail((err as { code?: string }).code ?? 'error'))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };

  const start = performance.now() + 20;
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * gap <= now) {
        fire(next, start + next * gap);
        next += 1;
      }
      if (next >= total) return resolve();
      setTimeout(tick, Math.max(0, Math.min(1, start + next * gap - performance.now())));
    };
    setTimeout(tick, 20);
  });
  while (inFlight.size > 0) await Promise.all([...inFlight]);
  await pool.close();
  const elapsed = Math.max(options.durationMs, lastAnswer - start);
  run.achievedRate = (run.ok * 1000) / elapsed;
  return run;
}

/**
 * One open-loop stream spread evenly over `urls`, all at once (rate/k each): the k streams
 * take request i*k+j in turn, so every request of the whole load is a different one (its own
 * delivery id and thread) whichever replica it reaches.
 */
export async function runSpreadOpenLoop(
  options: Omit<LoadOptions, 'url'> & { urls: readonly string[] },
): Promise<LoadRun[]> {
  const { urls, ...load } = options;
  const k = urls.length;
  return Promise.all(
    urls.map((url, j) =>
      runOpenLoop({
        ...load,
        url,
        rate: load.rate / k,
        makeRequest: (i) => load.makeRequest(i * k + j),
      }),
    ),
  );
}
