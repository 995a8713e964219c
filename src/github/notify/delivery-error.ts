/**
 * Octokit failures -> `DeliveryError`, so the outbox reschedules or parks without knowing
 * GitHub:
 * - 403/429 rate limits (secondary limits, or `x-ratelimit-remaining: 0`): retryable,
 *   `retryAfterMs` from `retry-after` or `x-ratelimit-reset` (fallback 60 s);
 * - 5xx and network failures: retryable;
 * - 404/410 (issue or comment deleted, repository gone): permanent `not_found`;
 * - other 401/403 (no access, locked issue): permanent `forbidden`; 400/422: permanent `invalid`.
 */
import type { DeliveryError } from '../../core/ports/index.js';
import { httpDeliveryError, retryAfterMs, unreachable } from '../../platform/delivery-errors.js';

interface OctokitLikeError {
  status: number;
  message: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

function isOctokitLikeError(err: unknown): err is OctokitLikeError & Error {
  return err instanceof Error && typeof (err as { status?: unknown }).status === 'number';
}

function header(err: OctokitLikeError, name: string): string | undefined {
  const value = err.response?.headers?.[name];
  return value === undefined ? undefined : String(value);
}

/** `retry-after`, else the reset time of an exhausted primary limit; else the kit's minute. */
function rateLimitWaitMs(err: OctokitLikeError, now: number): number | undefined {
  const after = retryAfterMs(header(err, 'retry-after'), now);
  if (after !== undefined) return after;
  const reset = Number(header(err, 'x-ratelimit-reset'));
  if (header(err, 'x-ratelimit-remaining') === '0' && Number.isFinite(reset) && reset > 0) {
    return Math.max(1000, reset * 1000 - now + 1000);
  }
  return undefined;
}

function isRateLimit(err: OctokitLikeError): boolean {
  if (err.status === 429) return true;
  if (err.status !== 403) return false;
  return (
    /\brate limit/i.test(err.message) ||
    header(err, 'retry-after') !== undefined ||
    header(err, 'x-ratelimit-remaining') === '0'
  );
}

/** Map any error thrown by an Octokit call to a `DeliveryError` (kept as `cause`). */
export function toDeliveryError(err: unknown, what: string, now: number): DeliveryError {
  if (!isOctokitLikeError(err)) return unreachable(err, what);
  const rateLimited = isRateLimit(err);
  return httpDeliveryError(what, {
    status: err.status,
    platform: 'GitHub',
    rateLimited,
    retryAfterMs: rateLimited ? rateLimitWaitMs(err, now) : undefined,
    cause: err,
  });
}
