/**
 * Before a retried create: did an earlier attempt already make the run? First our own
 * store (then the item is simply done), then the service by our `relay_request` stamp.
 */
import type { RunItem } from '../../core/run.js';
import type { RunRecord } from '../../core/ports/index.js';
import type { RunsDeps } from '../runs-deps.js';
import type { TriggerJob } from './trigger-job.js';

/** How far before the inbox item's creation the service search starts (clock skew). */
export const RECONCILE_MARGIN_MS = 5 * 60_000;

export type Reconciled =
  { kind: 'recorded'; run: RunRecord } | { kind: 'found'; run: RunItem } | { kind: 'none' };

export async function reconcile(deps: RunsDeps, job: TriggerJob): Promise<Reconciled> {
  const recorded = await deps.store.runs.getByRequest(job.requestId);
  if (recorded) return { kind: 'recorded', run: recorded };
  if (!job.mayHaveRunBefore) return { kind: 'none' };
  const createdAfter = new Date(job.item.createdAt - RECONCILE_MARGIN_MS).toISOString();
  const found = await deps.agent.findRunByRequest(job.requestId, createdAfter);
  if (found) {
    job.log.info(
      { runId: found.run_id },
      'an earlier attempt created the run; not creating another',
    );
    return { kind: 'found', run: found };
  }
  return { kind: 'none' };
}
