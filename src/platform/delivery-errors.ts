/**
 * A platform's HTTP answer -> `DeliveryError`, the one reading every REST platform shares, so
 * the outbox reschedules or parks without knowing the platform:
 * - 429 (or a rate limit the platform signals otherwise): retryable, after `Retry-After`;
 * - 5xx, 408 and no answer at all (status 0): retryable `unavailable`;
 * - 404/410 (the thing or its place is gone): permanent `not_found`;
 * - 401/403 (access lost): permanent `forbidden`; 400 (and 422 where the platform uses it for a
 *   rejected body): permanent `invalid`; anything else: retryable `unknown`.
 */
import { DeliveryError } from '../core/ports/index.js';
import type { Logger } from '../core/ports/index.js';

/** Without a usable `Retry-After`, wait a minute after a rate limit (GitHub's and Atlassian's advice). */
export const FALLBACK_RATE_LIMIT_MS = 60_000;

/** `Retry-After` in seconds or as an HTTP date, in ms from `now`; undefined when unusable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0)
    return Math.round(seconds * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** A failure with no HTTP answer (network, timeout, a bug): retryable. */
export function unreachable(err: unknown, what: string): DeliveryError {
  if (err instanceof DeliveryError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new DeliveryError('unavailable', `${what}: ${message}`, true, undefined, { cause: err });
}

export interface HttpFailure {
  status: number;
  /** The platform's name in the message (`GitHub`, `Jira`). */
  platform: string;
  /** The platform said it is a rate limit (beyond a 429). */
  rateLimited?: boolean;
  /** How long to wait after a rate limit; default a minute. */
  retryAfterMs?: number | undefined;
  /** The statuses that mean a rejected request; default 400 and 422. */
  rejected?: readonly number[];
  cause: unknown;
}

export function httpDeliveryError(what: string, failure: HttpFailure): DeliveryError {
  const { status } = failure;
  const say = (words: string) => `${what}: ${failure.platform} answered ${status} (${words})`;
  const cause = { cause: failure.cause };
  if (failure.rateLimited === true || status === 429) {
    const wait = failure.retryAfterMs ?? FALLBACK_RATE_LIMIT_MS;
    return new DeliveryError('rate_limited', say('rate limited'), true, wait, cause);
  }
  if (status === 404 || status === 410)
    return new DeliveryError('not_found', say('gone'), false, undefined, cause);
  if (status === 401 || status === 403)
    return new DeliveryError('forbidden', say('no access'), false, undefined, cause);
  if ((failure.rejected ?? [400, 422]).includes(status))
    return new DeliveryError('invalid', say('rejected'), false, undefined, cause);
  if (status === 0 || status === 408 || status >= 500)
    return new DeliveryError('unavailable', say('unavailable'), true, undefined, cause);
  return new DeliveryError('unknown', say('unexpected'), true, undefined, cause);
}

/**
 * A notifier's calls to its platform: a failure becomes a `DeliveryError` (by the platform's
 * own reading, `toError`), and a permanent one is logged as the platform's refusal.
 */
export function refusalLoggingCall(
  platform: string,
  logger: Logger,
  toError: (err: unknown, what: string, now: number) => DeliveryError,
  now: () => number,
): <T>(threadKey: string, what: string, fn: () => Promise<T>) => Promise<T> {
  return async (threadKey, what, fn) => {
    try {
      return await fn();
    } catch (err) {
      const failure = toError(err, what, now());
      if (!failure.retryable)
        logger.warn(
          { threadKey, code: failure.code, what },
          `${platform} refused the notification`,
        );
      throw failure;
    }
  };
}
