/** The kit's one reading of a platform's HTTP answer, as the outbox acts on it. */
import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/core/ports/index.js';
import {
  FALLBACK_RATE_LIMIT_MS,
  httpDeliveryError,
  retryAfterMs,
  unreachable,
} from '../../src/platform/delivery-errors.js';

const now = Date.parse('2026-01-01T00:00:00Z');

describe('httpDeliveryError', () => {
  it.each([
    [429, 'rate_limited', true],
    [500, 'unavailable', true],
    [503, 'unavailable', true],
    [408, 'unavailable', true],
    [0, 'unavailable', true],
    [404, 'not_found', false],
    [410, 'not_found', false],
    [401, 'forbidden', false],
    [403, 'forbidden', false],
    [400, 'invalid', false],
    [422, 'invalid', false],
    [409, 'unknown', true],
  ] as const)('%i -> %s (retryable %s)', (status, code, retryable) => {
    const err = httpDeliveryError('post', { status, platform: 'X', cause: new Error('x') });
    expect([err.code, err.retryable]).toEqual([code, retryable]);
    expect(err.message).toBe(`post: X answered ${status} (${words(code)})`);
  });

  it('waits as told after a rate limit, a minute when not told, also on a signalled 403', () => {
    const told = httpDeliveryError('post', {
      status: 429,
      platform: 'X',
      retryAfterMs: 5_000,
      cause: 1,
    });
    expect(told.retryAfterMs).toBe(5_000);
    const untold = httpDeliveryError('post', {
      status: 403,
      platform: 'X',
      rateLimited: true,
      cause: 1,
    });
    expect([untold.code, untold.retryAfterMs]).toEqual(['rate_limited', FALLBACK_RATE_LIMIT_MS]);
  });

  it('a platform that rejects with 400 only keeps 422 retryable', () => {
    const err = httpDeliveryError('post', {
      status: 422,
      platform: 'X',
      rejected: [400],
      cause: 1,
    });
    expect([err.code, err.retryable]).toEqual(['unknown', true]);
  });
});

describe('retryAfterMs and unreachable', () => {
  it('reads seconds and HTTP dates, and nothing from junk or an empty value', () => {
    expect(retryAfterMs('7', now)).toBe(7_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it('a failure without an answer is retryable; a DeliveryError stays as it is', () => {
    const err = unreachable(new Error('ECONNRESET'), 'post');
    expect([err.code, err.retryable, err.message]).toEqual([
      'unavailable',
      true,
      'post: ECONNRESET',
    ]);
    const given = new DeliveryError('forbidden', 'no', false);
    expect(unreachable(given, 'post')).toBe(given);
  });
});

function words(code: string): string {
  return {
    rate_limited: 'rate limited',
    unavailable: 'unavailable',
    not_found: 'gone',
    forbidden: 'no access',
    invalid: 'rejected',
    unknown: 'unexpected',
  }[code]!;
}
