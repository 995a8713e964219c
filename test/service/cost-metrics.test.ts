import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/core/ports/index.js';
import { countUsage } from '../../src/runs/tracker/count-usage.js';
import { createMetrics } from '../../src/service/metrics.js';

const record = (threadKey: string, costUsd?: number, tokens?: number) =>
  ({
    runId: 'r1',
    threadKey,
    platform: threadKey.startsWith('github:') ? 'github' : 'slack',
    ...(costUsd === undefined ? {} : { costUsd }),
    ...(tokens === undefined ? {} : { tokens }),
  }) as RunRecord;

describe('cost metrics', () => {
  it('count what each report added, by platform, naming no place (a private channel or DM id)', async () => {
    const m = createMetrics({ defaultMetrics: false });
    countUsage(m.metrics, record('slack:T1:C1:1.1'), { costUsd: 0.08, tokens: 12_000 });
    countUsage(m.metrics, record('slack:T1:C1:1.1', 0.08, 12_000), {
      costUsd: 1.24,
      tokens: 312_000,
    });
    countUsage(m.metrics, record('slack:T1:DSECRET1:2.2'), { costUsd: 0.5 });
    countUsage(m.metrics, record('github:o/r#7'), { costUsd: 2 });
    // A report that did not grow adds nothing.
    countUsage(m.metrics, record('github:o/r#7', 2), { costUsd: 2 });
    const { body } = await m.render();
    expect(body).toContain('agent_relay_run_cost_usd_total{platform="slack",place="all"} 1.74');
    expect(body).toContain('agent_relay_run_cost_usd_total{platform="github",place="all"} 2');
    expect(body).toContain('agent_relay_run_tokens_total{platform="slack",place="all"} 312000');
    expect(body).not.toMatch(/DSECRET1|C1"|o\/r/);
  });

  it("the budget gauge is the platform's highest share, naming no place", async () => {
    const m = createMetrics({ defaultMetrics: false });
    m.metrics.set('place_budget_used_ratio', 0.95, {
      platform: 'slack',
      place: 'slack:T1:GPRIV01',
    });
    m.metrics.set('place_budget_used_ratio', 0.4, { platform: 'slack', place: 'slack:T1:C1' });
    const { body } = await m.render();
    expect(body).toContain(
      'agent_relay_place_budget_used_ratio{platform="slack",place="all"} 0.95',
    );
    expect(body).not.toContain('GPRIV01');
    m.metrics.set('place_budget_used_ratio', 0.1, { platform: 'slack', place: 'slack:T1:GPRIV01' });
    expect((await m.render()).body).toContain(
      'agent_relay_place_budget_used_ratio{platform="slack",place="all"} 0.4',
    );
  });
});
