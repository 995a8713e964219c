/**
 * What the runs cost, as counters: each newly reported part of a run's cost (and tokens) is
 * added, by platform and place, once the tracker has committed it. The counter moves by what a
 * run's report grew, so the replicas together count each dollar once (one of them wrote it).
 */
import type { Logger, Metrics, RunRecord, Store } from '../../core/ports/index.js';
import { settingsScopeOf } from '../../core/thread-key.js';
import { placeBudget, type PlaceBudget } from '../use-cases/budget.js';

export function countUsage(
  metrics: Metrics,
  record: RunRecord,
  patch: Partial<Pick<RunRecord, 'costUsd' | 'tokens'>>,
): void {
  const labels = {
    platform: record.platform,
    place: settingsScopeOf(record.threadKey) ?? 'unknown',
  };
  const cost = (patch.costUsd ?? 0) - (record.costUsd ?? 0);
  if (patch.costUsd !== undefined && cost > 0) metrics.inc('run_cost_usd', labels, cost);
  const tokens = (patch.tokens ?? 0) - (record.tokens ?? 0);
  if (patch.tokens !== undefined && tokens > 0) metrics.inc('run_tokens', labels, tokens);
}

/**
 * The share of its monthly budget a place has spent, as a gauge, refreshed whenever the tracker
 * records more cost there (and when a run is refused over budget). Places without a budget have
 * none. Best effort: a failed read leaves the last value. Returns the budget it read.
 */
export async function refreshBudgetGauge(
  deps: { store: Store; metrics: Metrics; log: Logger },
  record: Pick<RunRecord, 'platform' | 'threadKey'>,
  now: number,
): Promise<PlaceBudget | undefined> {
  const scope = settingsScopeOf(record.threadKey);
  if (scope === undefined) return undefined;
  try {
    const budget = await placeBudget(deps, scope, now);
    if (budget === undefined || budget.budgetUsd <= 0) return budget;
    deps.metrics.set('place_budget_used_ratio', budget.spentUsd / budget.budgetUsd, {
      platform: record.platform,
      place: scope,
    });
    return budget;
  } catch (err) {
    deps.log.warn({ err, scope }, 'could not read the place budget for the gauge');
    return undefined;
  }
}
