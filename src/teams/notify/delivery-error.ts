/**
 * The Bot Connector's refusals -> `DeliveryError`, so the outbox reschedules or parks without
 * knowing Teams (Microsoft's "Optimize your bot: rate limiting" guide: a 429 asks to back
 * off, with `Retry-After` when it says how long):
 * - 429: retryable, after `Retry-After` (fallback 30 s);
 * - 5xx, 408 and no answer at all: retryable;
 * - 404 (the conversation or message is gone): permanent `not_found`;
 * - 401/403 (the bot was removed, or its token refused): permanent `forbidden`;
 * - 400/413: permanent `invalid`.
 */
import { DeliveryError } from '../../core/ports/index.js';
import { TeamsApiError } from '../api/connector-client.js';

const FALLBACK_RATE_LIMIT_MS = 30_000;

function retryAfterMs(value: string | undefined, now: number): number {
  if (value === undefined) return FALLBACK_RATE_LIMIT_MS;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : FALLBACK_RATE_LIMIT_MS;
}

export function toDeliveryError(err: unknown, what: string, now: number): DeliveryError {
  if (err instanceof DeliveryError) return err;
  if (!(err instanceof TeamsApiError)) {
    const message = err instanceof Error ? err.message : String(err);
    return new DeliveryError('unavailable', `${what}: ${message}`, true, undefined, { cause: err });
  }
  const { status } = err;
  const say = (words: string) => `${what}: the Bot Connector answered ${status} (${words})`;
  const cause = { cause: err };
  if (status === 429)
    return new DeliveryError(
      'rate_limited',
      say('rate limited'),
      true,
      retryAfterMs(err.retryAfter, now),
      cause,
    );
  if (status === 0 || status === 408 || status >= 500)
    return new DeliveryError('unavailable', say('unavailable'), true, undefined, cause);
  if (status === 404) return new DeliveryError('not_found', say('gone'), false, undefined, cause);
  if (status === 401 || status === 403)
    return new DeliveryError('forbidden', say('no access'), false, undefined, cause);
  if (status === 400 || status === 413)
    return new DeliveryError('invalid', say('rejected'), false, undefined, cause);
  return new DeliveryError('unknown', say('unexpected'), true, undefined, cause);
}
