import { describe, expect, it } from 'vitest';
import { AgentApiError } from '../../src/agent/index.js';
import type { ServiceErrorCode } from '../../src/core/ports/index.js';
import {
  backoffMs,
  isRetryableStatus,
  mayHaveBeenProcessed,
  parseRetryAfterMs,
  provablyNotProcessed,
  retryDelayMs,
  shouldRetry,
} from '../../src/agent/retry.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('retry policy', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [503, true],
    [599, true],
    [400, false],
    [401, false],
    [404, false],
    [422, false],
  ])('status %i retryable: %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });

  it('backs off from 0.5 s doubling up to 8 s, jitter taking at most 25 % off', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((i) => backoffMs(i, () => 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    expect(backoffMs(0, () => 0.999999)).toBe(375);
    expect(backoffMs(2, () => 0.5)).toBe(1750);
  });

  it.each([
    [{ 'retry-after-ms': '1500' }, 1500],
    [{ 'retry-after-ms': '1500', 'retry-after': '9' }, 1500],
    [{ 'retry-after': '3' }, 3000],
    [{ 'retry-after': '0' }, 0],
    [{ 'retry-after': '3600' }, 60_000],
    [{ 'retry-after-ms': '999999' }, 60_000],
    [{ 'retry-after': new Date(NOW + 4000).toUTCString() }, 4000],
    [{ 'retry-after': new Date(NOW - 4000).toUTCString() }, 0],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after-ms': '-5' }, undefined],
    [{ 'retry-after': ['2', '5'] }, 2000],
    [{}, undefined],
  ])('parseRetryAfterMs(%o) = %s', (headers, expected) => {
    expect(parseRetryAfterMs(headers, NOW)).toBe(expected);
  });

  it('uses the service wait when given, the backoff otherwise', () => {
    expect(retryDelayMs(3, 1200, () => 0)).toBe(1200);
    expect(retryDelayMs(3, undefined, () => 0)).toBe(4000);
  });

  const http = (code: ServiceErrorCode, status: number, retryable = true) =>
    new AgentApiError(code, { message: 'x', status, retryable });
  const refused = new AgentApiError('connection', {
    message: 'refused',
    retryable: true,
    beforeSend: true,
  });
  const reset = new AgentApiError('connection', {
    message: 'reset',
    retryable: true,
    beforeSend: false,
  });
  const timeout = new AgentApiError('connection_timeout', {
    message: 'timeout',
    retryable: true,
    beforeSend: false,
  });
  const invalid = new AgentApiError('response_validation', {
    message: 'bad',
    status: 200,
    retryable: false,
    issues: [],
  });

  it('idempotent calls retry connection errors and retryable statuses', () => {
    expect(shouldRetry(refused, 'idempotent')).toBe(true);
    expect(shouldRetry(reset, 'idempotent')).toBe(true);
    expect(shouldRetry(timeout, 'idempotent')).toBe(true);
    expect(shouldRetry(http('internal_server', 500), 'idempotent')).toBe(true);
    expect(shouldRetry(http('internal_server', 500, false), 'idempotent')).toBe(false);
    expect(shouldRetry(http('not_found', 404, false), 'idempotent')).toBe(false);
    expect(shouldRetry(invalid, 'idempotent')).toBe(false);
  });

  it('unsafe calls retry only what provably did not arrive', () => {
    expect(shouldRetry(refused, 'unsafe')).toBe(true);
    expect(shouldRetry(http('rate_limit', 429), 'unsafe')).toBe(true);
    expect(shouldRetry(http('internal_server', 503), 'unsafe')).toBe(true);
    for (const err of [
      reset,
      timeout,
      http('internal_server', 500),
      http('internal_server', 502),
      http('internal_server', 504),
      invalid,
    ]) {
      expect(shouldRetry(err, 'unsafe')).toBe(false);
      expect(provablyNotProcessed(err)).toBe(false);
      expect(mayHaveBeenProcessed(err)).toBe(true);
    }
    expect(mayHaveBeenProcessed(http('not_found', 404, false))).toBe(false);
    expect(mayHaveBeenProcessed(refused)).toBe(false);
  });
});
