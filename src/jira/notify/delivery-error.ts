/**
 * Jira's refusals -> `DeliveryError` through the kit's one reading of an HTTP answer
 * (Atlassian's rate limiting guide: a 429 carries `Retry-After` in seconds). Jira rejects a
 * body with 400 only, so a 422 stays retryable.
 */
import type { DeliveryError } from '../../core/ports/index.js';
import { httpDeliveryError, retryAfterMs, unreachable } from '../../platform/delivery-errors.js';
import { JiraApiError } from '../api/jira-client.js';

export function toDeliveryError(err: unknown, what: string, now: number): DeliveryError {
  if (!(err instanceof JiraApiError)) return unreachable(err, what);
  return httpDeliveryError(what, {
    status: err.status,
    platform: 'Jira',
    retryAfterMs: retryAfterMs(err.retryAfter, now),
    rejected: [400],
    cause: err,
  });
}
