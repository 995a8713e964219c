/**
 * Retry policy as small pure functions (docs/agent-api.md, "Retries").
 *
 * Two policies: `idempotent` calls retry connection errors, 408, 409, 429 and >=500;
 * `unsafe` calls (create, dispatch, follow-up: the service has no idempotency key) retry only
 * when the request provably did not arrive, and otherwise report the outcome as unknown.
 */
import { isConnectionFailure, type AgentApiError, type ResponseHeaders } from './errors.js';

export const RETRY_BASE_MS = 500;
export const RETRY_MAX_BACKOFF_MS = 8_000;
export const RETRY_AFTER_CAP_MS = 60_000;

/**
 * `create`: an unsafe call whose run can be found by its stamp afterwards. The service
 * documents that a create refused for capacity (429) may still queue the run, so for it a 429
 * is not proof that nothing happened: the caller looks before sending again.
 */
export type RetryPolicy = 'idempotent' | 'unsafe' | 'create';

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Exponential backoff (0.5 s, 1 s, 2 s, ... capped at 8 s) with up to 25 % jitter off. */
export function backoffMs(retryIndex: number, random: () => number): number {
  const base = Math.min(RETRY_BASE_MS * 2 ** Math.max(0, retryIndex), RETRY_MAX_BACKOFF_MS);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(base * (1 - 0.25 * r));
}

function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The wait the service asked for: `retry-after-ms` (milliseconds) first, then `retry-after`
 * (delta seconds or an HTTP date). Capped at 60 s; unparsable values are ignored.
 */
export function parseRetryAfterMs(headers: ResponseHeaders, now: number): number | undefined {
  const ms = header(headers, 'retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.min(Number(ms), RETRY_AFTER_CAP_MS);
  const value = header(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.min(Number(value) * 1000, RETRY_AFTER_CAP_MS);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(at - now, 0), RETRY_AFTER_CAP_MS);
}

/** How long to wait before retry number `retryIndex` (0-based). */
export function retryDelayMs(
  retryIndex: number,
  retryAfterMs: number | undefined,
  random: () => number,
): number {
  return retryAfterMs ?? backoffMs(retryIndex, random);
}

/** True when the request provably never reached the service (nothing was processed). */
export function provablyNotProcessed(err: AgentApiError, policy: RetryPolicy = 'unsafe'): boolean {
  if (isConnectionFailure(err)) return err.beforeSend;
  if (err.status === 429) return policy !== 'create';
  return err.status === 503;
}

/**
 * For an unsafe call that failed: may the service have acted on it? A definite answer (a 4xx
 * other than 429, or a refused connection) says no; a timeout after sending, a reset, a
 * 500/502/504 or an unreadable 2xx say maybe.
 */
export function mayHaveBeenProcessed(err: AgentApiError, policy: RetryPolicy = 'unsafe'): boolean {
  // A create's 429 is settled by its caller (look by stamp, then send again), not reported.
  if (policy === 'create' && err.status === 429) return false;
  if (provablyNotProcessed(err, policy)) return false;
  if (isConnectionFailure(err)) return true;
  if (err.code === 'response_validation') return true;
  return err.status !== undefined && err.status >= 500;
}

export function shouldRetry(err: AgentApiError, policy: RetryPolicy): boolean {
  if (policy !== 'idempotent') return provablyNotProcessed(err, policy);
  if (isConnectionFailure(err)) return true;
  // `retryable` defaults to the status rule; a problem body's `retryable: false` vetoes.
  return err.status !== undefined && isRetryableStatus(err.status) && err.retryable;
}
