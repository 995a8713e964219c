/**
 * A sub-run waiting for approval (an orchestration child of the thread's run): its question
 * says so, and the typed answer names the sub-run, since a bare `approve` in the thread would
 * go to the thread's own run.
 */
import { describe, expect, it } from 'vitest';
import { reviewHeadline, typedAnswers } from '../../../src/core/message/review-text.js';
import type { ReviewView } from '../../../src/core/message/message-model.js';

const CHILD = 'c0ffee00-0000-4000-8000-000000000077';

describe('the question about a sub-run', () => {
  const subRun: ReviewView = { kind: 'action', version: 2, subRun: { runId: CHILD } };
  const own: ReviewView = { kind: 'action', version: 1, action: { what: 'git push' } };

  it('says a sub-run waits, and its typed answer names the sub-run', () => {
    expect(reviewHeadline(subRun)).toBe('A sub-run this run started is waiting for approval');
    expect(typedAnswers(subRun, '@agent-relay')).toContain(`\`@agent-relay approve ${CHILD}\``);
  });

  it('a run’s own action keeps the bare answer', () => {
    expect(reviewHeadline(own)).toBe('Waiting for your approval');
    expect(typedAnswers(own, '@agent-relay')).toContain('`@agent-relay approve`');
    expect(typedAnswers(own, '@agent-relay')).not.toContain(CHILD);
  });
});
