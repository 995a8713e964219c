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

/** The decision for `err` at the given attempt, on the test's clock and retry schedule. */
function decide(
  err: Parameters<typeof decideFailure>[0]['err'],
  attempts = 0,
  waitNoticeSent = false,
) {
  return decideFailure({ err, item: { attempts, waitNoticeSent }, now, retryDelaysMs: delays });
}

describe('decideFailure', () => {
  it('tells about a wrong key and completes (no retry)', () => {
    const d = decide(problem('authentication', 401));
    expect(d.action).toBe('complete');
    expect(d.message).toMatchObject({ type: 'notice', tone: 'error' });
    const p = decide(problem('permission_denied', 403));
    expect(p.action).toBe('complete');
  });

  it('retries an unavailable service with the schedule, telling the person once', () => {
    const first = decide(problem('internal_server', 503));
    expect(first).toMatchObject({ action: 'retry', at: now + 5_000 });
    expect(first.message).toMatchObject({ type: 'notice', tone: 'warning' });
    const second = decide(problem('internal_server', 503), 1, true);
    expect(second).toMatchObject({ action: 'retry', at: now + 15_000 });
    expect(second.message).toBeUndefined();
    const last = decide(problem('internal_server', 503), 3, true);
    expect(last.action).toBe('fail');
    expect(last.message).toMatchObject({ tone: 'error' });
  });

  it('honours Retry-After when longer than the schedule', () => {
    const d = decide(problem('rate_limit', 429, { retryAfterMs: 90_000 }));
    expect(d).toMatchObject({ action: 'retry', at: now + 90_000 });
  });

  it('shows the service detail of a rejected request', () => {
    const d = decide(problem('bad_request', 400, { detail: 'model_id unknown' }));
    expect(d.action).toBe('complete');
    expect(d.message).toMatchObject({ type: 'notice' });
    expect(d.message && d.message.type === 'notice' ? d.message.text : '').toContain(
      'model_id unknown',
    );
  });

  it('retries a bug a bounded number of times, then apologises', () => {
    const bug = new TypeError('x is undefined');
    expect(decide(bug).action).toBe('retry');
    const last = decide(bug, 2);
    expect(last.action).toBe('fail');
  });
});
