/**
 * Put tracked runs into the service's SQLite database before it starts, as if the service
 * had started them and seen them settle: the thread, its current run, the posted status
 * message, the last observed state and `updated_at`, and a per-run check interval already at
 * its cap with the next checks spread over it (what a long-running tracker holds). The same
 * runs exist in the emulator (seeded there first), so nothing differs but the time saved.
 */
import { randomUUID } from 'node:crypto';
import { openStore } from '../../src/store/index.js';
import type { SeededRun } from '../children/backends-api.js';
import { createPrng } from './prng.js';

/** The tracker's default cap on a quiet run's check interval (runs/runs-deps.ts). */
export const STEADY_CHECK_INTERVAL_MS = 30_000;

export async function seedStore(
  databasePath: string,
  runs: readonly SeededRun[],
  options: { seed: number; checkIntervalMs?: number },
): Promise<void> {
  const interval = options.checkIntervalMs ?? STEADY_CHECK_INTERVAL_MS;
  const store = await openStore({ databaseUrl: databasePath });
  const random = createPrng(options.seed);
  const now = Date.now();
  try {
    const chunk = 500;
    for (let start = 0; start < runs.length; start += chunk) {
      await store.transaction(async (tx) => {
        for (const run of runs.slice(start, start + chunk)) {
          await tx.threads.upsert(
            {
              threadKey: run.threadKey,
              platform: run.platform,
              currentRunId: run.runId,
              startedBy: 'UALICE01',
            },
            run.createdAt,
          );
          await tx.runs.insert({
            runId: run.runId,
            threadKey: run.threadKey,
            platform: run.platform,
            requestId: randomUUID(),
            requester: { id: 'UALICE01', name: 'Alice' },
            title: run.title,
            state: run.state,
            serviceUpdatedAt: run.updatedAt,
            applied: [],
            statusMessage: { threadKey: run.threadKey, id: run.statusRefId },
            nextCheckAt: now + Math.floor(random() * interval),
            checkIntervalMs: interval,
            tracked: true,
            createdAt: run.createdAt,
            updatedAt: now,
          });
        }
      });
    }
  } finally {
    await store.close();
  }
}
