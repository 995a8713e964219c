/**
 * Linear's webhook signature: `Linear-Signature` is the hex HMAC-SHA256 of the raw body with
 * the webhook's signing secret. Compared in constant time; anything malformed is a mismatch.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

export function signLinearBody(secret: string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export function linearSignatureMatches(
  secret: string,
  body: Buffer,
  signature: string | undefined,
): boolean {
  if (signature === undefined || !HEX_SHA256.test(signature.trim())) return false;
  const expected = Buffer.from(signLinearBody(secret, body), 'hex');
  const given = Buffer.from(signature.trim(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Linear's replay check: `webhookTimestamp` (epoch ms) within this much of our clock. */
export const LINEAR_TIMESTAMP_TOLERANCE_MS = 60_000;

export function timestampFresh(webhookTimestamp: unknown, now: number): boolean {
  return (
    typeof webhookTimestamp === 'number' &&
    Number.isFinite(webhookTimestamp) &&
    Math.abs(now - webhookTimestamp) <= LINEAR_TIMESTAMP_TOLERANCE_MS
  );
}
