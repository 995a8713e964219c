/**
 * What is remembered of each Linear agent session (by its thread key), in the store so that
 * every replica decides from the same facts, whichever of them delivers a message: whether
 * the session's run is working (live, neither blocked nor ended; written with the run's
 * change, runs/session-work.ts) and when the relay last wrote to the session (the session
 * keeper reads both), the keep-alive it claimed and queued, not yet written, and whether a
 * Stop was just answered there (the run's next BLOCKED outcome is not queued;
 * runs/session-work.ts).
 */

/** A working session nothing was written to for a while. */
export interface QuietLinearSession {
  threadKey: string;
  lastWrittenAt: number;
}

export interface LinearSessions {
  /**
   * The session's run is working, or not, as of `at`. A working run counts as written at
   * `at`: the quiet period starts afresh.
   */
  setWorking(threadKey: string, working: boolean, at: number): Promise<void>;
  /** The relay wrote to the session at `at` (a time older than the one kept changes nothing). */
  written(threadKey: string, at: number): Promise<void>;
  /** Working sessions last written to before `before`, the quietest first, at most `limit`. */
  quiet(before: number, limit: number): Promise<QuietLinearSession[]>;
  /**
   * Claim the keep-alive of a quiet session: only while it is working and was last written at
   * `lastWrittenAt` still (a compare-and-set, so one caller wins). The winner's keep-alive
   * counts as written at `at`, and the claim holds until `until` or `keepAliveDone`.
   */
  claimKeepAlive(
    threadKey: string,
    lastWrittenAt: number,
    at: number,
    until: number,
  ): Promise<boolean>;
  /** The claimed keep-alive was written: the claim ends (the next one is no longer held back). */
  keepAliveDone(threadKey: string): Promise<void>;
  /** Until when a claimed keep-alive may still be on its way to Linear and holds the next back (0: none). */
  keepAliveUntil(threadKey: string): Promise<number>;
  /** A Stop was answered in the session. */
  markStopped(threadKey: string, at: number): Promise<void>;
  /** Take the Stop mark: true for the one caller that finds it set; it is clear afterwards. */
  takeStopped(threadKey: string, at: number): Promise<boolean>;
}

interface Remembered {
  working: boolean;
  lastWrittenAt: number;
  keepAliveUntil: number;
  stopped: boolean;
}

/** Session memory in this process only: for a notifier given no store (tests, tools). */
export function createMemoryLinearSessions(): LinearSessions {
  const sessions = new Map<string, Remembered>();
  const of = (threadKey: string): Remembered => {
    let row = sessions.get(threadKey);
    if (!row) {
      row = { working: false, lastWrittenAt: 0, keepAliveUntil: 0, stopped: false };
      sessions.set(threadKey, row);
    }
    return row;
  };
  return {
    setWorking(threadKey, working, at) {
      const row = of(threadKey);
      row.working = working;
      if (working) row.lastWrittenAt = Math.max(row.lastWrittenAt, at);
      return Promise.resolve();
    },
    written(threadKey, at) {
      const row = of(threadKey);
      row.lastWrittenAt = Math.max(row.lastWrittenAt, at);
      return Promise.resolve();
    },
    quiet(before, limit) {
      const found = [...sessions]
        .filter(([, row]) => row.working && row.lastWrittenAt < before)
        .sort(([, a], [, b]) => a.lastWrittenAt - b.lastWrittenAt)
        .slice(0, Math.max(0, limit))
        .map(([threadKey, row]) => ({ threadKey, lastWrittenAt: row.lastWrittenAt }));
      return Promise.resolve(found);
    },
    claimKeepAlive(threadKey, lastWrittenAt, at, until) {
      const row = sessions.get(threadKey);
      if (!row?.working || row.lastWrittenAt !== lastWrittenAt) return Promise.resolve(false);
      row.lastWrittenAt = at;
      row.keepAliveUntil = until;
      return Promise.resolve(true);
    },
    keepAliveDone(threadKey) {
      const row = sessions.get(threadKey);
      if (row) row.keepAliveUntil = 0;
      return Promise.resolve();
    },
    keepAliveUntil(threadKey) {
      return Promise.resolve(sessions.get(threadKey)?.keepAliveUntil ?? 0);
    },
    markStopped(threadKey) {
      of(threadKey).stopped = true;
      return Promise.resolve();
    },
    takeStopped(threadKey) {
      const row = sessions.get(threadKey);
      const was = row?.stopped ?? false;
      if (row) row.stopped = false;
      return Promise.resolve(was);
    },
  };
}
