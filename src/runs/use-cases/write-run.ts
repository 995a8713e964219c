/**
 * Every writer of a run's state other than the tracker (a follow-up, a cancel) writes through
 * the same compare-and-set as the tracker: it reads the run inside its transaction, decides
 * its patch from what it read, and writes only if the row still holds that; otherwise it
 * reads again. A tracker that recorded a state change meanwhile is therefore never
 * overwritten by a decision made before that change, and the tracker in turn reads again
 * when a follow-up or cancel moved the row under it.
 */
import type { RunRecord, StoreTx } from '../../core/ports/index.js';

export type RunPatch = Partial<Omit<RunRecord, 'runId'>>;

/** Tries before giving up; each loss means another writer committed in between. */
const MAX_ATTEMPTS = 8;

export class RunWriteConflict extends Error {
  constructor(runId: string) {
    super(`run ${runId} kept changing under ${MAX_ATTEMPTS} writes; the trigger is retried`);
    this.name = 'RunWriteConflict';
  }
}

/**
 * Writes `decide(current)` to the run if it is unchanged since read; false when the run does
 * not exist. Throws RunWriteConflict when it lost every try (the handling is retried).
 */
export async function writeRunChecked(
  tx: StoreTx,
  runId: string,
  decide: (current: RunRecord) => RunPatch,
): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const current = await tx.runs.get(runId);
    if (!current) return false;
    if (await tx.runs.compareAndUpdate(runId, current, decide(current))) return true;
  }
  throw new RunWriteConflict(runId);
}
