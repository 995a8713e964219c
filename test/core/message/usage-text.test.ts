import { describe, expect, it } from 'vitest';
import { toRunView } from '../../../src/core/message/run-view.js';
import {
  formatCost,
  formatTokens,
  formatUsd,
  labelledUsage,
  usageLine,
} from '../../../src/core/message/usage-text.js';

const item = {
  run_id: 'r1',
  title: 'Fix it',
  state: 'SUCCEEDED',
  started_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:14:00Z',
  run_time: 'PT14M',
};

describe('usage text', () => {
  it('words a cost, tokens and a dollar amount', () => {
    expect(formatCost(1.24)).toBe('≈ $1.24');
    expect(formatCost(0)).toBe('≈ $0.00');
    expect(formatCost(0.001)).toBe('≈ < $0.01');
    expect(formatCost(1234.5)).toBe('≈ $1,234.50');
    expect(formatTokens(812)).toBe('812 tokens');
    expect(formatTokens(312_000)).toBe('312k tokens');
    expect(formatTokens(999_600)).toBe('1M tokens');
    expect(formatTokens(1_250_000)).toBe('1.3M tokens');
    expect(formatUsd(20)).toBe('$20');
    expect(formatUsd(12.5)).toBe('$12.50');
  });

  it('the line of a run the service reported usage for', () => {
    const view = toRunView({
      run: {
        ...item,
        request_usage: { inference_cost_usd: 1.1, compute_cost_usd: 0.14, total_tokens: 312_000 },
      },
    });
    expect(usageLine(view)).toBe('about $1.24 · 312k tokens');
    expect(labelledUsage(view)).toBe('Used about $1.24 · 312k tokens');
    expect(labelledUsage(view, true)).toBe('Used about $1.24 · 312k tokens so far');
    expect(usageLine({ usage: { costUsd: 0.001 } })).toBe('less than $0.01');
  });

  it('a missing figure is left out, never shown as 0; nothing reported, no line', () => {
    const tokensOnly = toRunView({ run: { ...item, request_usage: { total_tokens: 5_000 } } });
    expect(usageLine(tokensOnly)).toBe('5k tokens');
    const costOnly = toRunView({ run: { ...item, request_usage: { compute_cost_usd: 0.5 } } });
    expect(usageLine(costOnly)).toBe('about $0.50');
    expect(usageLine(toRunView({ run: item }))).toBeUndefined();
    expect(usageLine(toRunView({ run: { ...item, request_usage: { inference_cost: 9 } } }))).toBe(
      undefined,
    );
  });

  it('falls back to the recorded figures when the item carries no report', () => {
    const view = toRunView({ run: item, record: { costUsd: 2, tokens: 40_000 } });
    expect(usageLine(view)).toBe('about $2.00 · 40k tokens');
  });
});
