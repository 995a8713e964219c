/**
 * How a notifier reports a failed delivery: a stable code, whether a retry may help, and how
 * long the platform asked us to wait. The outbox reschedules or parks on these alone.
 */
export type DeliveryErrorCode =
  'rate_limited' | 'unavailable' | 'not_found' | 'forbidden' | 'invalid' | 'unknown';

export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  constructor(
    readonly code: DeliveryErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
