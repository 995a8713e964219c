import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  PermissionDeniedError,
  RateLimitError,
} from '../../../src/agent/index.js';
import { decideFailure } from '../../../src/runs/use-cases/service-failure.js';

const delays = [5_000, 15_000, 60_000];
const now = 1_000_000;

function problem<T>(
  Ctor: new (init: never) => T,
  status: number,
  extra: Record<string, unknown> = {},
): T {
  return new Ctor({
    status,
    message: `HTTP ${status}`,
    retryable: status >= 500 || status === 429,
    ...extra,
  } as never);
}

describe('decideFailure', () => {
  it('tells about a wrong key and completes (no retry)', () => {
    const d = decideFailure({
      err: problem(AuthenticationError, 401),
      item: { attempts: 0, waitNoticeSent: false },
      now,
      retryDelaysMs: delays,
    });
    expect(d.action).toBe('complete');
    expect(d.message).toMatchObject({ type: 'notice', tone: 'error' });
    const p = decideFailure({
      err: problem(PermissionDeniedError, 403),
      item: { attempts: 0, waitNoticeSent: false },
      now,
      retryDelaysMs: delays,
    });
    expect(p.action).toBe('complete');
  });

  it('retries an unavailable service with the schedule, telling the person once', () => {
    const first = decideFailure({
      err: problem(InternalServerError, 503),
      item: { attempts: 0, waitNoticeSent: false },
      now,
      retryDelaysMs: delays,
    });
    expect(first).toMatchObject({ action: 'retry', at: now + 5_000 });
    expect(first.message).toMatchObject({ type: 'notice', tone: 'warning' });
    const second = decideFailure({
      err: problem(InternalServerError, 503),
      item: { attempts: 1, waitNoticeSent: true },
      now,
      retryDelaysMs: delays,
    });
    expect(second).toMatchObject({ action: 'retry', at: now + 15_000 });
    expect(second.message).toBeUndefined();
    const last = decideFailure({
      err: problem(InternalServerError, 503),
      item: { attempts: 3, waitNoticeSent: true },
      now,
      retryDelaysMs: delays,
    });
    expect(last.action).toBe('fail');
    expect(last.message).toMatchObject({ tone: 'error' });
  });

  it('honours Retry-After when longer than the schedule', () => {
    const d = decideFailure({
      err: problem(RateLimitError, 429, { retryAfterMs: 90_000 }),
      item: { attempts: 0, waitNoticeSent: false },
      now,
      retryDelaysMs: delays,
    });
    expect(d).toMatchObject({ action: 'retry', at: now + 90_000 });
  });

  it('shows the service detail of a rejected request', () => {
    const d = decideFailure({
      err: problem(BadRequestError, 400, { detail: 'model_id unknown' }),
      item: { attempts: 0, waitNoticeSent: false },
      now,
      retryDelaysMs: delays,
    });
    expect(d.action).toBe('complete');
    expect(d.message).toMatchObject({ type: 'notice' });
    expect(d.message && d.message.type === 'notice' ? d.message.text : '').toContain(
      'model_id unknown',
    );
  });

  it('retries a bug a bounded number of times, then apologises', () => {
    const bug = new TypeError('x is undefined');
    expect(
      decideFailure({
        err: bug,
        item: { attempts: 0, waitNoticeSent: false },
        now,
        retryDelaysMs: delays,
      }).action,
    ).toBe('retry');
    const last = decideFailure({
      err: bug,
      item: { attempts: 2, waitNoticeSent: false },
      now,
      retryDelaysMs: delays,
    });
    expect(last.action).toBe('fail');
  });
});
