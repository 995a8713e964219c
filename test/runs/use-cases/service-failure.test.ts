import { describe, expect, it } from 'vitest';
import { AgentApiError, type AgentApiErrorInit } from '../../../src/agent/index.js';
import type { ServiceErrorCode } from '../../../src/core/ports/index.js';
import { decideFailure } from '../../../src/runs/use-cases/service-failure.js';

const delays = [5_000, 15_000, 60_000];
const now = 1_000_000;

function problem(
  code: ServiceErrorCode,
  status: number,
  extra: Partial<AgentApiErrorInit> = {},
): AgentApiError {
  return new AgentApiError(code, {
    status,
    message: `HTTP ${status}`,
    retryable: status >= 500 || status === 429,
    ...extra,
  });
}

describe('decideFailure', () => {
  it('tells about a wrong key and completes (no retry)', () => {
    const d = decideFailure({
      err: problem('authentication', 401),
      item: { attempts: 0, waitNoticeSent: false },
      now,
      retryDelaysMs: delays,
    });
    expect(d.action).toBe('complete');
    expect(d.message).toMatchObject({ type: 'notice', tone: 'error' });
    const p = decideFailure({
      err: problem('permission_denied', 403),
      item: { attempts: 0, waitNoticeSent: false },
      now,
      retryDelaysMs: delays,
    });
    expect(p.action).toBe('complete');
  });

  it('retries an unavailable service with the schedule, telling the person once', () => {
    const first = decideFailure({
      err: problem('internal_server', 503),
      item: { attempts: 0, waitNoticeSent: false },
      now,
      retryDelaysMs: delays,
    });
    expect(first).toMatchObject({ action: 'retry', at: now + 5_000 });
    expect(first.message).toMatchObject({ type: 'notice', tone: 'warning' });
    const second = decideFailure({
      err: problem('internal_server', 503),
      item: { attempts: 1, waitNoticeSent: true },
      now,
      retryDelaysMs: delays,
    });
    expect(second).toMatchObject({ action: 'retry', at: now + 15_000 });
    expect(second.message).toBeUndefined();
    const last = decideFailure({
      err: problem('internal_server', 503),
      item: { attempts: 3, waitNoticeSent: true },
      now,
      retryDelaysMs: delays,
    });
    expect(last.action).toBe('fail');
    expect(last.message).toMatchObject({ tone: 'error' });
  });

  it('honours Retry-After when longer than the schedule', () => {
    const d = decideFailure({
      err: problem('rate_limit', 429, { retryAfterMs: 90_000 }),
      item: { attempts: 0, waitNoticeSent: false },
      now,
      retryDelaysMs: delays,
    });
    expect(d).toMatchObject({ action: 'retry', at: now + 90_000 });
  });

  it('shows the service detail of a rejected request', () => {
    const d = decideFailure({
      err: problem('bad_request', 400, { detail: 'model_id unknown' }),
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
