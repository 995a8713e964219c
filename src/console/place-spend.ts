/**
 * What each place (a Slack channel, a GitHub repository, a Linear team) spent this month, for
 * the console's places page: the store sums the runs per thread, this folds the threads into
 * their places and adds each place's budget. A viewer sees only the places they may see runs
 * of (the same rule as the runs list), asked of one thread of each place.
 */
import type { OperatorQueries, Store } from '../core/ports/index.js';
import { settingsScopeOf } from '../core/thread-key.js';
import { budgetOfSetting } from '../core/place.js';

export interface PlaceSpend {
  /** The settings scope (`slack:T:C`, `github:owner/repo`, `linear:org:team`). */
  scope: string;
  spentUsd: number;
  runs: number;
  /** Of those, the runs that reported a cost (none: the spend is unknown, not 0). */
  costed: number;
  /** The monthly budget set there, if any. */
  budgetUsd?: number;
  /** One thread of the place (what the viewer rule is asked about). */
  sampleThreadKey: string;
}

export type PlaceSort = 'spend' | 'place';

export async function placeSpend(
  deps: { operator: OperatorQueries; store: Pick<Store, 'settings'> },
  since: number,
  visible: (threadKey: string) => Promise<boolean>,
  sort: PlaceSort,
): Promise<PlaceSpend[]> {
  const byScope = new Map<string, PlaceSpend>();
  for (const t of await deps.operator.spendByThread(since)) {
    const scope = settingsScopeOf(t.threadKey) ?? t.threadKey;
    const place = byScope.get(scope);
    if (place) {
      place.spentUsd += t.spentUsd;
      place.runs += t.runs;
      place.costed += t.costed;
    } else
      byScope.set(scope, {
        scope,
        spentUsd: t.spentUsd,
        runs: t.runs,
        costed: t.costed,
        sampleThreadKey: t.threadKey,
      });
  }
  const places: PlaceSpend[] = [];
  for (const place of byScope.values()) {
    if (!(await visible(place.sampleThreadKey))) continue;
    place.spentUsd = Math.round(place.spentUsd * 1e6) / 1e6;
    const setting = (await deps.store.settings.list(place.scope)).find((s) => s.key === 'budget');
    const budgetUsd = budgetOfSetting(setting?.value);
    places.push(budgetUsd === undefined ? place : { ...place, budgetUsd });
  }
  return places.sort((a, b) =>
    sort === 'place'
      ? a.scope.localeCompare(b.scope)
      : b.spentUsd - a.spentUsd || a.scope.localeCompare(b.scope),
  );
}
