/**
 * The budget notice when the tracker records the cost that takes a place to 80 % of its
 * monthly budget (or past all of it), not only when a new run starts there: once a month
 * per place, sharing the start check's lease (so whichever sees it first says it), queued in
 * the outbox in the thread of the run whose cost was recorded.
 */
import type { BudgetWords } from '../runs-deps.js';
import type { Logger, Random, RunRecord, Store } from '../../core/ports/index.js';
import {
  BUDGET_NOTICE_SHARE,
  budgetNotice,
  budgetPlatform,
  takeNoticeLease,
  type PlaceBudget,
} from '../use-cases/budget.js';

export interface BudgetCrossingDeps {
  store: Store;
  random: Random;
  log: Logger;
  /** How the raise command is written (the bot's handle on GitHub, the command on Slack). */
  words: BudgetWords;
  notifyOutbox?: () => void;
}

/** Says the place's notice if its spend has reached 80 % and nobody said it this month. */
export async function noticeBudgetReached(
  deps: BudgetCrossingDeps,
  record: Pick<RunRecord, 'runId' | 'platform' | 'threadKey'>,
  budget: PlaceBudget,
  now: number,
): Promise<boolean> {
  if (budget.spentUsd < budget.budgetUsd * BUDGET_NOTICE_SHARE) return false;
  const holder = `usage:${record.runId}:${deps.random.id()}`;
  if (!(await takeNoticeLease(deps, budget.scope, holder, now))) return false;
  const message = budgetNotice(budgetPlatform(record.platform), budget, now, deps.words);
  await deps.store.transaction(async (tx) => {
    await tx.outbox.enqueue(
      { kind: 'post', destination: { threadKey: record.threadKey }, message },
      now,
    );
  });
  deps.log.info(
    { scope: budget.scope, spentUsd: budget.spentUsd, budgetUsd: budget.budgetUsd },
    'budget notice queued: a recorded cost took the place past its notice share',
  );
  deps.notifyOutbox?.();
  return true;
}
