/**
 * What a run's status message, once the outbox has posted it, means for the run: it is
 * recorded on the run (later states edit it), and when posting it made a new thread (a slash
 * command's), that thread becomes the run's: replies there find this run, and later
 * notifications go there. The outbox worker delivers and reports what it posted; this decides.
 */
import type { RunRecord, Store } from '../core/ports/index.js';
import type { MessageRef } from '../core/trigger.js';

export async function adoptStatusMessage(
  store: Pick<Store, 'transaction' | 'runs'>,
  now: number,
  run: RunRecord,
  ref: MessageRef,
  newKey?: string,
): Promise<void> {
  const moved = newKey !== undefined && newKey !== run.threadKey;
  // One write is atomic by itself: a transaction around it would only add two round trips
  // (BEGIN and COMMIT), which on PostgreSQL cost as much as the write.
  if (!moved) {
    await store.runs.update(run.runId, { statusMessage: ref });
    return;
  }
  await store.transaction(async (tx) => {
    await tx.threads.upsert(
      {
        threadKey: newKey,
        platform: run.platform,
        currentRunId: run.runId,
        startedBy: run.requester.id,
      },
      now,
    );
    await tx.runs.update(run.runId, { statusMessage: ref, threadKey: newKey });
  });
}
