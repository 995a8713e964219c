/**
 * Octokit failures -> `DeliveryError`, so the outbox reschedules or parks without knowing
 * GitHub:
 * - 403/429 rate limits (secondary limits, or `x-ratelimit-remaining: 0`): retryable,
 *   `retryAfterMs` from `retry-after` or `x-ratelimit-reset` (fallback 60 s);
 * - 5xx and network failures: retryable;
 * - 404/410 (issue or comment deleted, repository gone): permanent `not_found`;
 * - other 401/403 (no access, locked issue): permanent `forbidden`; 400/422: permanent `invalid`.
 */
import { DeliveryError } from '../../core/ports/index.js';

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

/** GitHub's guidance: without `retry-after`, wait at least a minute after a secondary limit. */
const FALLBACK_RATE_LIMIT_MS = 60_000;

function retryAfterMs(err: OctokitLikeError, now: number): number {
  const retryAfter = header(err, 'retry-after');
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }
  const reset = Number(header(err, 'x-ratelimit-reset'));
  if (header(err, 'x-ratelimit-remaining') === '0' && Number.isFinite(reset) && reset > 0) {
    return Math.max(1000, reset * 1000 - now + 1000);
  }
  return FALLBACK_RATE_LIMIT_MS;
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
  if (err instanceof DeliveryError) return err;
  if (!isOctokitLikeError(err)) {
    const message = err instanceof Error ? err.message : String(err);
    return new DeliveryError('unavailable', `${what}: ${message}`, true, undefined, { cause: err });
  }
  const { status } = err;
  const say = (text: string): string => `${what}: GitHub answered ${status} (${text})`;
  if (isRateLimit(err)) {
    return new DeliveryError('rate_limited', say('rate limited'), true, retryAfterMs(err, now), {
      cause: err,
    });
  }
  if (status === 404 || status === 410) {
    return new DeliveryError('not_found', say('gone'), false, undefined, { cause: err });
  }
  if (status === 401 || status === 403) {
    return new DeliveryError('forbidden', say('no access'), false, undefined, { cause: err });
  }
  if (status === 400 || status === 422) {
    return new DeliveryError('invalid', say('rejected'), false, undefined, { cause: err });
  }
  if (status >= 500 || status === 408) {
    return new DeliveryError('unavailable', say('unavailable'), true, undefined, { cause: err });
  }
  return new DeliveryError('unknown', say('unexpected'), true, undefined, { cause: err });
}
