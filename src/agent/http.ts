/**
 * The single request function of the agent client: one HTTP exchange per attempt (undici),
 * zod validation of every 2xx body, typed errors for everything else, and the retry loop.
 */
import { setTimeout as sleepTimer } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import type { CallOptions } from '../core/ports/index.js';
import { AgentApiError, type ResponseHeaders } from './errors.js';
import { parseAnswer } from './parse-response.js';
import { retryDelayMs, mayHaveBeenProcessed, shouldRetry, type RetryPolicy } from './retry.js';
import { errorFromTransport } from './transport-error.js';
import { buildQuery, fillRoute } from './url.js';

export interface AgentRequestInfo {
  method: string;
  /** The path template with its method, e.g. `GET /agent/runs/{runId}` (bounded cardinality). */
  route: string;
  status?: number;
  durationMs: number;
  /** The error code when the attempt failed (`internal_server`, `connection_timeout`, `aborted`...). */
  error?: string;
  /** 0 for the first attempt, 1 for the first retry... */
  attempt: number;
}

export interface HttpConfig {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
  userAgent: string;
  dispatcher?: Dispatcher;
  random: () => number;
  sleep?: (ms: number) => Promise<void>;
  now: () => number;
  onRequest?: (info: AgentRequestInfo) => void;
}

export interface Endpoint<T> {
  method: 'GET' | 'POST';
  /** Path template below the base URL, e.g. `/agent/runs/{runId}`. */
  route: string;
  params?: Readonly<Record<string, string>>;
  /** Query parameters; arrays repeat the key. */
  query?: object;
  /** Sent as JSON when defined. */
  body?: unknown;
  schema: z.ZodType<T>;
  policy: RetryPolicy;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: ResponseHeaders;
}

export type Http = (<T>(
  endpoint: Endpoint<T>,
  options?: CallOptions,
) => Promise<ApiResponse<T>>) & {
  /** The retries a call may make after its first attempt. */
  maxRetries(options?: CallOptions): number;
  /** Wait as before retry number `retry` (0-based): the service's Retry-After, else backoff. */
  waitBeforeRetry(
    retry: number,
    retryAfterMs: number | undefined,
    options?: CallOptions,
  ): Promise<void>;
};

export function createHttp(config: HttpConfig): Http {
  const base = config.baseUrl.replace(/\/+$/, '');
  const redact = (text: string): string =>
    config.apiKey.length >= 4 ? text.split(config.apiKey).join('[redacted]') : text;

  function report(info: AgentRequestInfo): void {
    try {
      config.onRequest?.(info);
    } catch {
      // A metrics hook must never break a call.
    }
  }

  async function attempt<T>(
    ep: Endpoint<T>,
    url: string,
    body: string | undefined,
    retry: number,
    timeoutMs: number,
    callerSignal: AbortSignal | undefined,
  ): Promise<ApiResponse<T>> {
    const timeoutSignal = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeoutSignal]) : timeoutSignal;
    const headers: Record<string, string> = {
      authorization: `Bearer ${config.apiKey}`,
      'user-agent': config.userAgent,
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    const route = `${ep.method} ${ep.route}`;
    let status: number | undefined;
    try {
      const res = await request(url, {
        method: ep.method,
        headers,
        body,
        signal,
        dispatcher: config.dispatcher,
      });
      status = res.statusCode;
      const rawBody = await res.body.text();
      const data = parseAnswer(ep.schema, {
        method: ep.method,
        route: ep.route,
        status,
        headers: res.headers,
        rawBody,
        now: config.now(),
        redact,
      });
      report({
        method: ep.method,
        route,
        status,
        durationMs: performance.now() - started,
        attempt: retry,
      });
      return { data, status, headers: res.headers };
    } catch (err) {
      const durationMs = performance.now() - started;
      if (callerSignal?.aborted) {
        report({ method: ep.method, route, status, durationMs, error: 'aborted', attempt: retry });
        throw callerSignal.reason;
      }
      const error =
        err instanceof AgentApiError
          ? err
          : errorFromTransport(err, {
              method: ep.method,
              route: ep.route,
              timeoutMs,
              timedOut: timeoutSignal.aborted,
              redact,
            });
      report({ method: ep.method, route, status, durationMs, error: error.code, attempt: retry });
      throw error;
    }
  }

  async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (config.sleep) {
      await config.sleep(ms);
    } else {
      await sleepTimer(ms, undefined, { signal }).catch((err: unknown) => {
        throw signal?.aborted ? signal.reason : err;
      });
    }
    signal?.throwIfAborted();
  }

  const maxRetries = (options: CallOptions = {}): number =>
    Math.max(0, options.maxRetries ?? config.maxRetries);

  async function call<T>(ep: Endpoint<T>, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    const url = base + fillRoute(ep.route, ep.params) + buildQuery(ep.query);
    const body = ep.body === undefined ? undefined : JSON.stringify(ep.body);
    for (let retry = 0; ; retry++) {
      options.signal?.throwIfAborted();
      try {
        return await attempt(ep, url, body, retry, timeoutMs, options.signal);
      } catch (err) {
        if (!(err instanceof AgentApiError)) throw err;
        if (retry >= maxRetries(options) || !shouldRetry(err, ep.policy)) {
          if (ep.policy !== 'idempotent' && mayHaveBeenProcessed(err, ep.policy)) {
            err.outcomeUnknown = true;
          }
          throw err;
        }
        await pause(retryDelayMs(retry, err.retryAfterMs, config.random), options.signal);
      }
    }
  }

  return Object.assign(call, {
    maxRetries,
    waitBeforeRetry: (retry: number, retryAfterMs: number | undefined, options: CallOptions = {}) =>
      pause(retryDelayMs(retry, retryAfterMs, config.random), options.signal),
  });
}
