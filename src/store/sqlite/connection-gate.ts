/**
 * Who gets SQLite's one connection next. Kysely's SQLite driver keeps the connection behind a
 * mutex that wakes waiters in no particular order; with a busy inbox, outbox and tracker, an
 * HTTP request that a platform is waiting on (the ingress writing a trigger before it answers)
 * queued behind every background statement. The gate hands the connection to waiting urgent
 * work first (work under a deadline: deadline.ts), then to background work in arrival order.
 *
 * Background work also gives the event loop a turn before it queues: a chain of statements
 * (a trigger's handling, a delivery's bookkeeping) resolves through promises only, and would
 * otherwise run start to end while a newly arrived request waits to be read. Which turn is
 * the caller's choice (`backgroundTurn`): by default the check phase; the service passes the
 * ingress priority's turn (runs/workers/ingress-priority.ts), a timer turn just after a
 * Slack/GitHub request, so that the reader of its answer gets the CPU first.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface ConnectionGate {
  /** Wait for the connection; resolve when it is the caller's. */
  acquire(urgent: boolean): Promise<void>;
  /** Hand the connection on (to urgent waiters first). */
  release(): void;
  /** Nobody holds the connection: no statement and no transaction is under way on it. */
  idle(): boolean;
  /** Waiters not yet served (diagnostics and tests). */
  waiting(): { urgent: number; background: number };
}

export interface ConnectionGateOptions {
  /** Awaited by background work before it queues. Default: the next check phase. */
  backgroundTurn?: () => Promise<unknown>;
}

export function createConnectionGate(options: ConnectionGateOptions = {}): ConnectionGate {
  const backgroundTurn = options.backgroundTurn ?? (() => nextTurn());
  let held = false;
  const urgent: (() => void)[] = [];
  const background: (() => void)[] = [];

  function take(queue: (() => void)[]): Promise<void> {
    if (!held) {
      held = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => queue.push(resolve));
  }

  return {
    async acquire(isUrgent) {
      if (isUrgent) return take(urgent);
      await backgroundTurn();
      return take(background);
    },
    release() {
      const next = urgent.shift() ?? background.shift();
      if (next) next();
      else held = false;
    },
    idle: () => !held,
    waiting: () => ({ urgent: urgent.length, background: background.length }),
  };
}
