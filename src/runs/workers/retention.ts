/**
 * Retention: every so often, delete the inbox items and notifications that finished more than
 * `keepMs` ago, and the records of "Starting…" messages as old (store.pruneFinished); and the
 * runs, threads and sub-runs' BLOCKED-episode records older than `runsKeepMs` that decide
 * nothing more (store.pruneRuns); a batch at a time. And the console sessions that expired.
 */
import type { Clock, Logger, Store } from '../../core/ports/index.js';

export interface RetentionDeps {
  store: Pick<Store, 'pruneFinished' | 'pruneRuns' | 'consoleSessions'>;
  clock: Clock;
  logger: Logger;
  /** How long a finished inbox/outbox row is kept; absent: for ever. */
  keepMs?: number;
  /** How long a finished run, and a thread with no run left, is kept; absent: for ever. */
  runsKeepMs?: number;
  /** How often to prune. Default 10 minutes. */
  intervalMs?: number;
  /** Rows per statement. Default 500. */
  batch?: number;
}

export interface Pruned {
  inbox: number;
  outbox: number;
  startMessages: number;
  runs: number;
  threads: number;
  blockedDescendants: number;
  /** Console sessions past their expiry (sign-out deletes a session at once). */
  consoleSessions: number;
}

export interface Retention {
  /** Prune what is due now; resolves with the rows deleted. */
  runOnce(): Promise<Pruned>;
  start(): void;
  /** Stop the timer and wait for a prune in progress. */
  stop(): Promise<void>;
}

/** At most this many batches per run, so one run stays short even after a long pause. */
const MAX_BATCHES = 40;

export function createRetention(deps: RetentionDeps): Retention {
  const batch = deps.batch ?? 500;
  const logger = deps.logger.child({ component: 'retention' });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  /**
   * Prune what is older than `keepMs` a batch at a time, adding what each batch deleted to
   * `total`, until a batch deletes less than a full batch of every kind.
   */
  async function inBatches<K extends keyof Pruned>(
    keepMs: number | undefined,
    prune: (before: number, limit: number) => Promise<Record<K, number>>,
    kinds: readonly K[],
    total: Pruned,
  ): Promise<void> {
    if (keepMs === undefined) return;
    const before = deps.clock.now() - keepMs;
    for (let i = 0; i < MAX_BATCHES && !stopped; i++) {
      const deleted = await prune(before, batch);
      for (const kind of kinds) total[kind] += deleted[kind];
      if (kinds.every((kind) => deleted[kind] < batch)) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async function runOnce(): Promise<Pruned> {
    const total = {
      inbox: 0,
      outbox: 0,
      startMessages: 0,
      runs: 0,
      threads: 0,
      blockedDescendants: 0,
      consoleSessions: 0,
    };
    const { store } = deps;
    const queues = ['inbox', 'outbox', 'startMessages'] as const;
    await inBatches(deps.keepMs, store.pruneFinished.bind(store), queues, total);
    // Finished runs and emptied threads, after the queues (a thread waits for its rows).
    const runs = ['runs', 'threads', 'blockedDescendants'] as const;
    await inBatches(deps.runsKeepMs, store.pruneRuns.bind(store), runs, total);
    total.consoleSessions = (await deps.store.consoleSessions?.pruneExpired(deps.clock.now())) ?? 0;
    if (Object.values(total).some((n) => n > 0)) {
      logger.info(
        { ...total, keptMs: deps.keepMs, runsKeptMs: deps.runsKeepMs },
        'deleted finished triggers, notifications, runs and threads, and expired sessions',
      );
    }
    return total;
  }

  return {
    runOnce,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        if (running) return;
        running = runOnce()
          .catch((err: unknown) => logger.warn({ err }, 'retention: pruning failed'))
          .finally(() => (running = undefined));
      }, deps.intervalMs ?? 600_000);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
