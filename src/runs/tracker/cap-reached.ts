/**
 * A run's spending cap (docs/usage.md, "A spending cap per run"): when the cost the tracker
 * records reaches the run's limit while the agent works, the relay interrupts it (or cancels
 * a run that cannot be interrupted) and asks its requester, privately where the platform can,
 * to Continue for another cap or Stop here. Without an answer the run stays stopped. The
 * question is bound to the run and a new version (review.ts answers it).
 */
import type {
  AgentService,
  Logger,
  PlatformCapabilities,
  RunRecord,
  Store,
} from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import type { Platform } from '../../core/trigger.js';
import { stateView } from '../../core/message/state-view.js';
import { viewOf } from '../../core/message/run-view.js';
import { capOf } from '../use-cases/spending-cap.js';
import { writeRunChecked } from '../use-cases/write-run.js';

export interface CapDeps {
  store: Store;
  agent: AgentService;
  log: Logger;
  capabilities?: Partial<Record<Platform, PlatformCapabilities>>;
  notifyOutbox?: () => void;
}

/** The limit the run may spend up to now, or undefined: no cap. */
export function capLimit(record: Pick<RunRecord, 'capUsd' | 'applied'>): number | undefined {
  return record.capUsd ?? capOf(record);
}

/** Whether the recorded cost takes a working run to its limit, with no question open yet. */
export function reachesCap(record: RunRecord, costUsd: number): boolean {
  const limit = capLimit(record);
  if (limit === undefined || costUsd < limit) return false;
  if (record.review?.kind === 'cap' && record.review.status === 'open') return false;
  return stateView(record.state).live;
}

async function stopTheAgent(deps: CapDeps, runId: string): Promise<'interrupted' | 'cancelled'> {
  try {
    await deps.agent.interruptRun(runId, { maxRetries: 0 });
    return 'interrupted';
  } catch (err) {
    if (!isServiceError(err)) throw err;
    // Not interruptible now (not started, another kind, no interrupt at all): cancel it; a
    // Continue resumes it with a follow-up all the same.
    await deps.agent.cancelRun(runId, { maxRetries: 0 });
    return 'cancelled';
  }
}

export async function stopAtCap(
  deps: CapDeps,
  runId: string,
  costUsd: number,
  now: number,
): Promise<boolean> {
  const record = await deps.store.runs.get(runId);
  if (record === undefined || !reachesCap(record, costUsd)) return false;
  const limit = capLimit(record)!;
  const step = capOf(record) ?? limit;
  const version = (record.review?.version ?? 0) + 1;
  const privately = deps.capabilities?.[record.platform]?.ephemeral === true;
  const view = viewOf(record, { run_id: runId, title: record.title, state: record.state }, now);
  // The question is recorded first, so the tracker that sees the run stop knows why.
  await deps.store.transaction(async (tx) => {
    await writeRunChecked(tx, runId, () => ({
      review: { kind: 'cap', version, status: 'open' },
      capUsd: limit,
      tracked: true,
      nextCheckAt: now,
      updatedAt: now,
    }));
    await tx.outbox.enqueue(
      {
        kind: 'post',
        destination: {
          threadKey: record.threadKey,
          ...(privately ? { privateTo: record.requester.id } : {}),
        },
        runId,
        message: {
          type: 'review',
          run: view,
          review: {
            kind: 'cap',
            version,
            cap: { limitUsd: limit, stepUsd: step, spentUsd: costUsd },
          },
        },
      },
      now,
    );
  });
  const how = await stopTheAgent(deps, runId);
  deps.log.info({ runId, costUsd, limitUsd: limit, how }, 'run stopped at its spending cap');
  deps.notifyOutbox?.();
  return true;
}
