/**
 * How a notifier reports a failed delivery: a stable code, whether a retry may help, and how
 * long the platform asked us to wait. The outbox reschedules or parks on these alone.
 */
import { RelayError } from '../relay-error.js';

export type DeliveryErrorCode =
  'rate_limited' | 'unavailable' | 'not_found' | 'forbidden' | 'invalid' | 'unknown';

export class DeliveryError extends RelayError<DeliveryErrorCode> {
  override readonly name = 'DeliveryError';
  constructor(
    code: DeliveryErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
