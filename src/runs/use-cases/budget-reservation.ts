/**
 * What makes a budget a hard limit (docs/usage.md, "What a run costs"): where a budget applies
 * (a place's, a person's), work is let through one run at a time, and the run let through holds
 * the budget's reservation until its cost is known. From the check until the run (or the
 * follow-up) is recorded, the reservation is the scope's start hold, a lease every replica
 * shares, taken in one statement; from then on it is the run's own record, until the run has
 * ended (or waits for input) and the relay has recorded its last cost
 * (`runs.unknownCostSince`). The spend is read only while the hold is held, so what a check
 * reads cannot move under it: a budget is passed by at most the cost of one run, whatever the
 * burst and however long the runs take.
 */
import type { RunRecord } from '../../core/ports/index.js';
import {
  budgetOfSetting,
  monthStartUtc,
  personScope,
  placeThreadPrefix,
} from '../../core/place.js';
import type { RunsDeps } from '../runs-deps.js';
import { settingsOf, type TriggerJob } from './trigger-job.js';

/**
 * How long a start hold lasts when its request never says it is done (a crashed process): a
 * request gives it back as soon as its run is recorded, or it gave up.
 */
export const BUDGET_HOLD_MS = 10 * 60_000;

/** A budget some work counts against, and what was spent of it this month. */
export interface BudgetScope {
  kind: 'place' | 'person';
  /** Where the `budget` setting lives (a place's scope, or `slack-user:…`, `github-user:…`). */
  scope: string;
  /** The thread-key prefix of the runs that count. */
  runsPrefix: string;
  /** Only this person's runs count (a person's budget). */
  requesterId?: string;
  budgetUsd: number;
}

export interface SpentScope extends BudgetScope {
  spentUsd: number;
}

async function budgetSetting(
  deps: Pick<RunsDeps, 'store'>,
  job: Pick<TriggerJob, 'settingsRead'>,
  scope: string,
): Promise<number | undefined> {
  const setting = (await settingsOf(deps, job, scope)).find((s) => s.key === 'budget');
  return budgetOfSetting(setting?.value);
}

/**
 * The budgets work in `threadKey` counts against: the requester's own (`requesterId`, the
 * person whose run it is) first, then the place's (`placeScope`). Empty when neither has one.
 * The settings are the trigger's (read once per trigger, trigger-job.ts).
 */
export async function budgetsOf(
  deps: Pick<RunsDeps, 'store'>,
  job: Pick<TriggerJob, 'settingsRead'>,
  input: { threadKey: string; placeScope: string; requesterId: string },
): Promise<BudgetScope[]> {
  const scopes: BudgetScope[] = [];
  const person = personScope(input.threadKey, input.requesterId);
  if (person !== undefined) {
    const budgetUsd = await budgetSetting(deps, job, person.scope);
    if (budgetUsd !== undefined) {
      scopes.push({
        kind: 'person',
        scope: person.scope,
        runsPrefix: person.runsPrefix,
        requesterId: input.requesterId,
        budgetUsd,
      });
    }
  }
  const placeUsd = await budgetSetting(deps, job, input.placeScope);
  if (placeUsd !== undefined) {
    scopes.push({
      kind: 'place',
      scope: input.placeScope,
      runsPrefix: placeThreadPrefix(input.placeScope),
      budgetUsd: placeUsd,
    });
  }
  return scopes;
}

/** The month's spend of a budget (read while its hold is held, so it cannot move under it). */
export async function spentOf(
  deps: Pick<RunsDeps, 'store'>,
  scope: BudgetScope,
  now: number,
): Promise<SpentScope> {
  const since = monthStartUtc(now);
  const spentUsd =
    scope.requesterId === undefined
      ? await deps.store.runs.spendSince(scope.runsPrefix, since)
      : await deps.store.runs.spendOfRequesterSince(scope.runsPrefix, scope.requesterId, since);
  return { ...scope, spentUsd };
}

/** A run of this month that counts against `scope` and whose cost is not known yet. */
export async function runOfUnknownCost(
  deps: Pick<RunsDeps, 'store'>,
  scope: BudgetScope,
  now: number,
  exceptRunId?: string,
): Promise<RunRecord | undefined> {
  const runs = await deps.store.runs.unknownCostSince(scope.runsPrefix, monthStartUtc(now), {
    ...(scope.requesterId === undefined ? {} : { requesterId: scope.requesterId }),
    limit: 2,
  });
  return runs.find((r) => r.runId !== exceptRunId);
}

function holdName(scope: BudgetScope): string {
  return `budget-start:${scope.scope}`;
}

/**
 * Take the start hold of every scope for the job's request (again, for a retry of it), or
 * none: the scope whose hold another request has, when one has it.
 */
export async function takeHolds(
  deps: Pick<RunsDeps, 'store' | 'clock'>,
  job: TriggerJob,
  scopes: readonly BudgetScope[],
): Promise<BudgetScope | undefined> {
  const taken: BudgetScope[] = [];
  for (const scope of scopes) {
    const held = await deps.store.leases.acquire(
      holdName(scope),
      job.requestId,
      deps.clock.now(),
      BUDGET_HOLD_MS,
    );
    if (held === undefined) {
      await releaseHolds(deps, job, taken);
      return scope;
    }
    taken.push(scope);
  }
  return undefined;
}

/** Give the job's holds back (a refusal, or its work is recorded). */
export async function releaseHolds(
  deps: Pick<RunsDeps, 'store'>,
  job: TriggerJob,
  scopes: readonly BudgetScope[],
): Promise<void> {
  for (const scope of scopes) await deps.store.leases.release(holdName(scope), job.requestId);
}

/**
 * Keep the holds until the job is settled: its writes committed (from then on its run's record
 * is the reservation), or the request given up. A request that will be tried again keeps them.
 */
export function holdUntilSettled(
  deps: Pick<RunsDeps, 'store'>,
  job: TriggerJob,
  scopes: readonly BudgetScope[],
): void {
  job.whenSettled.push(async () => {
    try {
      await releaseHolds(deps, job, scopes);
    } catch (err) {
      // The hold runs out on its own (BUDGET_HOLD_MS).
      job.log.warn({ err }, 'could not give the budget hold back');
    }
  });
}
