/**
 * The session keeper: keep-alives for the agent sessions of platforms that mark a quiet
 * session stale (`sessionKeepAlive`: Linear, after 30 minutes without activity), decided from
 * the runs' records and queued in the outbox like every other notification; the platform's
 * notifier only writes them (`Notifier.keepAlive`). Runs beside the progress poller, only
 * while this replica holds the tracking lease.
 *
 * A session's working state (its run live, neither waiting nor ended) is written where a run's
 * change is committed, and a Stop's answer ends the turn in its own transaction
 * (runs/session-work.ts). A sweep reads the working sessions nothing was written to for
 * `keepAliveMs` and, for each, in one transaction: reads the thread's current run, holds its
 * row (a compare-and-set that changes nothing), claims the keep-alive with a compare-and-set on
 * the session's last write, and queues it. So:
 * - a run's last words are never followed by a keep-alive: whoever records the run's end (or
 *   a Stop's answer) writes the run's row too, so it either commits first (the sweep then finds
 *   the run ended, or the session not working) or after the keep-alive was queued, and the
 *   outbox delivers a thread's notifications in the order they were queued;
 * - replicas write each keep-alive once: one keeper sweeps at a time, and of two that overlap
 *   (the lease changing hands) one wins the claim.
 * A queued keep-alive holds the next one back until the notifier wrote it (`keepAliveDone`),
 * or for `HOLD_PERIODS` quiet periods at most: one the platform refused for good (a session
 * deleted) is parked by the outbox and not asked again at every sweep.
 */
import type { Clock, Logger, Store } from '../../core/ports/index.js';
import { currentRun, works } from '../session-work.js';

/** Quiet sessions one sweep looks at. */
const BATCH = 50;
/** Quiet periods a queued keep-alive, not yet written, holds back the next one at most. */
const HOLD_PERIODS = 3;

export interface SessionKeeper {
  /** Queue a keep-alive for every working session quiet for `keepAliveMs`; how many. */
  sweep(): Promise<number>;
}

export function createSessionKeeper(deps: {
  store: Pick<Store, 'linearSessions' | 'transaction'>;
  clock: Clock;
  log: Logger;
  keepAliveMs: number;
  /** After keep-alives were queued. */
  notifyOutbox?: () => void;
}): SessionKeeper {
  const { store, clock, log, keepAliveMs } = deps;

  /** One quiet session: whether a keep-alive was queued for it. */
  function keep(threadKey: string, lastWrittenAt: number, now: number): Promise<boolean> {
    return store.transaction(async (tx) => {
      const run = await currentRun(tx, threadKey);
      // Hold the run's row: whoever records its end (or a Stop) commits before or after this.
      const held =
        run !== undefined &&
        (await tx.runs.compareAndUpdate(run.runId, run, { nextCheckAt: run.nextCheckAt }));
      if (run !== undefined && !held) return false; // moved meanwhile: the next sweep decides
      if (run === undefined || !works(run.state)) {
        await tx.linearSessions.setWorking(threadKey, false, now);
        return false;
      }
      if ((await tx.linearSessions.keepAliveUntil(threadKey)) > now) return false;
      const claimed = await tx.linearSessions.claimKeepAlive(
        threadKey,
        lastWrittenAt,
        now,
        now + HOLD_PERIODS * keepAliveMs,
      );
      if (!claimed) return false;
      await tx.outbox.enqueue({ kind: 'keep_alive', destination: { threadKey } }, now);
      return true;
    });
  }

  return {
    async sweep() {
      const now = clock.now();
      const quiet = await store.linearSessions.quiet(now - keepAliveMs + 1, BATCH);
      let queued = 0;
      for (const { threadKey, lastWrittenAt } of quiet) {
        try {
          if (await keep(threadKey, lastWrittenAt, now)) queued += 1;
        } catch (err) {
          log.warn({ threadKey, err: (err as Error).message }, 'keep-alive not queued');
        }
      }
      if (queued > 0) deps.notifyOutbox?.();
      return queued;
    },
  };
}
