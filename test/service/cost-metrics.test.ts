import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/core/ports/index.js';
import { countUsage } from '../../src/runs/tracker/count-usage.js';
import { createMetrics } from '../../src/service/metrics.js';
import { createPlaceLabel } from '../../src/service/place-label.js';

const record = (threadKey: string, costUsd?: number, tokens?: number) =>
  ({
    runId: 'r1',
    threadKey,
    platform: threadKey.startsWith('github:') ? 'github' : 'slack',
    ...(costUsd === undefined ? {} : { costUsd }),
    ...(tokens === undefined ? {} : { tokens }),
  }) as RunRecord;

describe('cost metrics', () => {
  it('count what each report added, by platform and place', async () => {
    const m = createMetrics({ defaultMetrics: false });
    countUsage(m.metrics, record('slack:T1:C1:1.1'), { costUsd: 0.08, tokens: 12_000 });
    countUsage(m.metrics, record('slack:T1:C1:1.1', 0.08, 12_000), {
      costUsd: 1.24,
      tokens: 312_000,
    });
    countUsage(m.metrics, record('github:o/r#7'), { costUsd: 2 });
    // A report that did not grow adds nothing.
    countUsage(m.metrics, record('github:o/r#7', 2), { costUsd: 2 });
    const { body } = await m.render();
    expect(body).toContain(
      'agent_relay_run_cost_usd_total{platform="slack",place="slack:T1:C1"} 1.24',
    );
    expect(body).toContain(
      'agent_relay_run_cost_usd_total{platform="github",place="github:o/r"} 2',
    );
    expect(body).toContain(
      'agent_relay_run_tokens_total{platform="slack",place="slack:T1:C1"} 312000',
    );
  });

  it('the place label is bounded: later places share "other", and none moves', () => {
    const label = createPlaceLabel(2);
    expect(label('a')).toBe('a');
    expect(label('b')).toBe('b');
    expect(label('c')).toBe('other');
    expect(label('a')).toBe('a');
    expect(label(undefined)).toBe('other');
  });

  it('the budget gauge is per place', async () => {
    const m = createMetrics({ defaultMetrics: false });
    m.metrics.set('place_budget_used_ratio', 0.95, { platform: 'slack', place: 'slack:T1:C1' });
    const { body } = await m.render();
    expect(body).toContain(
      'agent_relay_place_budget_used_ratio{platform="slack",place="slack:T1:C1"} 0.95',
    );
  });
});
