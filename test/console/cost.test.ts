/** The console's cost column: the reported cost per run, and the page sorted by it. */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/core/ports/index.js';
import { runsBody } from '../../src/console/pages/runs-page.js';
import { runCost } from '../../src/console/pages/run-summary.js';
import type { PageContext } from '../../src/console/pages/layout.js';

const T0 = Date.parse('2030-01-01T10:00:00Z');
function record(runId: string, costUsd?: number, tokens?: number): RunRecord {
  return {
    runId,
    threadKey: 'slack:T1:C1:1700000000.000100',
    platform: 'slack',
    requestId: `req-${runId}`,
    requester: { id: 'U1' },
    title: `Run ${runId}`,
    state: 'SUCCEEDED',
    applied: [],
    ...(costUsd === undefined ? {} : { costUsd }),
    ...(tokens === undefined ? {} : { tokens }),
    nextCheckAt: 0,
    checkIntervalMs: 1_000,
    tracked: false,
    createdAt: T0,
    updatedAt: T0,
  };
}

describe('console: cost', () => {
  it('shows the reported cost, or a dash when none was reported', () => {
    expect(runCost(record('a', 1.24, 312_000), undefined, T0)).toBe('≈ $1.24 · 312k tokens');
    expect(runCost(record('b'), undefined, T0)).toBe('–');
  });

  it('sorts the page by cost, highest first, runs without one last', () => {
    const runs = [record('cheap', 0.5), record('none'), record('dear', 7)];
    const view = { runs, filter: {}, details: new Map(), githubWebUrl: 'https://github.com' };
    const ctx = { now: T0 } as unknown as PageContext;
    const order = (sort?: 'cost') =>
      [
        ...String(runsBody({ ...view, ...(sort ? { sort } : {}) }, ctx)).matchAll(
          /data-run="(\w+)"/g,
        ),
      ].map((m) => m[1]);
    expect(order()).toEqual(['cheap', 'none', 'dear']);
    expect(order('cost')).toEqual(['dear', 'cheap', 'none']);
  });
});
