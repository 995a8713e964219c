/**
 * Keep-alives for quiet Linear sessions (Linear marks a session stale after 30 minutes
 * without activity). Any replica may sweep: it reads the working sessions nothing was written
 * to for `keepAliveMs` from the shared session memory, asks the run's own record whether it
 * still works, and claims each keep-alive with a compare-and-set on the last write's time, so
 * one replica writes it. A delivery that ends a run marks the session not working and lets a
 * keep-alive another replica already claimed land first, so nothing follows the run's last
 * words.
 */
import {
  DeliveryError,
  type Clock,
  type LinearSessions,
  type Logger,
} from '../../core/ports/index.js';
import type { LinearGraphql } from '../api/graphql-client.js';
import { createActivity } from '../api/requests.js';

const KEEP_ALIVE_THOUGHT = 'Still working on it…';
/** How long a replica's claim of a keep-alive holds while it writes it. */
const KEEP_ALIVE_CLAIM_MS = 15_000;
/** How often a delivery that ends a run looks whether a claimed keep-alive has landed. */
const CLAIM_POLL_MS = 50;
/** Quiet sessions one sweep looks at. */
const KEEP_ALIVE_BATCH = 50;

export interface KeepAliveDeps {
  sessions: LinearSessions;
  clock: Clock;
  log: Logger;
  keepAliveMs: number;
  /** The session a thread names, and the client of its workspace. */
  placeOf(threadKey: string): Promise<{ session: string; gql: LinearGraphql }>;
  /** Whether the thread's run still works by the store's record (absent: trust `sessions`). */
  runWorks?: (threadKey: string) => Promise<boolean>;
}

export interface KeepAlive {
  /** Whether the session's run is working; when it stops, a claimed keep-alive lands first. */
  setWorking(threadKey: string, working: boolean): Promise<void>;
  /** Write a keep-alive in every working session quiet for `keepAliveMs`; how many. */
  sweep(): Promise<number>;
}

export function createKeepAlive(deps: KeepAliveDeps): KeepAlive {
  const { sessions, clock, log } = deps;

  /**
   * A keep-alive that Linear refused for good (the session is gone, the workspace's app
   * uninstalled) is not tried again: the session counts as not working until a status says
   * it is. Any other failure is tried again at the next sweep.
   */
  async function afterFailure(
    threadKey: string,
    claimed: boolean,
    err: unknown,
    claimedAt: number,
    lastWrittenAt: number,
  ): Promise<void> {
    if (err instanceof DeliveryError && !err.retryable) {
      await sessions.setWorking(threadKey, false, claimedAt);
      if (claimed) await sessions.keepAliveDone(threadKey);
    } else if (claimed) {
      await sessions.keepAliveFailed(threadKey, claimedAt, lastWrittenAt);
    }
  }

  return {
    async setWorking(threadKey, working) {
      await sessions.setWorking(threadKey, working, clock.now());
      if (working) return;
      for (let waited = 0; waited < KEEP_ALIVE_CLAIM_MS; waited += CLAIM_POLL_MS) {
        if ((await sessions.keepAliveUntil(threadKey)) <= clock.now()) return;
        await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
      }
    },
    async sweep() {
      const now = clock.now();
      let sent = 0;
      const quiet = await sessions
        .quiet(now - deps.keepAliveMs + 1, KEEP_ALIVE_BATCH)
        .catch((err: unknown) => {
          log.warn({ err: (err as Error).message }, 'quiet Linear sessions not read');
          return [];
        });
      for (const { threadKey, lastWrittenAt } of quiet) {
        let claimed = false;
        try {
          const place = await deps.placeOf(threadKey);
          if (deps.runWorks && !(await deps.runWorks(threadKey))) {
            await sessions.setWorking(threadKey, false, now);
            continue;
          }
          // One replica wins the claim; the others find the session written to and move on.
          claimed = await sessions.claimKeepAlive(
            threadKey,
            lastWrittenAt,
            now,
            now + KEEP_ALIVE_CLAIM_MS,
          );
          if (!claimed) continue;
          await createActivity(place.gql, place.session, {
            content: { type: 'thought', body: KEEP_ALIVE_THOUGHT },
          });
        } catch (err) {
          log.warn({ threadKey, err: (err as Error).message }, 'keep-alive activity failed');
          await afterFailure(threadKey, claimed, err, now, lastWrittenAt).catch(() => undefined);
          continue;
        }
        sent += 1;
        // Left in place, the claim only runs out: a run that ends meanwhile waits that long.
        await sessions.keepAliveDone(threadKey).catch((err: unknown) => {
          log.warn({ threadKey, err: (err as Error).message }, 'keep-alive claim not released');
        });
      }
      return sent;
    },
  };
}
