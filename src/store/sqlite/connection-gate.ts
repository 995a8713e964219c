/**
 * Who gets SQLite's one connection next. Kysely's SQLite driver keeps the connection behind a
 * mutex that wakes waiters in no particular order; with a busy inbox, outbox and tracker, an
 * HTTP request that a platform is waiting on (the ingress writing a trigger before it answers)
 * queued behind every background statement. The gate hands the connection to waiting urgent
 * work first (work under a deadline: deadline.ts), then to background work in arrival order.
 *
 * Background work also gets the connection on a turn of the event loop, one statement (or
 * transaction) per turn: a chain of statements (a trigger's handling, a delivery's
 * bookkeeping) resolves through promises only, and would otherwise run start to end while a
 * newly arrived request waits to be read. One per turn matters as much as the turn itself:
 * when twenty runs change at once, the tracker's twenty chains all waited for the same turn
 * and then ran one after another within it, a block of several milliseconds that a request
 * arriving meanwhile sat behind. Now a request waits for at most one background statement
 * and the code around it. Which turn is the caller's choice (`backgroundTurn`): by default
 * the check phase; the service passes the ingress priority's turn
 * (runs/workers/ingress-priority.ts), a timer turn just after a Slack/GitHub request, so that
 * the reader of its answer gets the CPU first. Urgent work never waits for a turn.
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
  /** The turn each background taker waits for (one per turn). Default: the next check phase. */
  backgroundTurn?: () => Promise<unknown>;
}

export function createConnectionGate(options: ConnectionGateOptions = {}): ConnectionGate {
  const backgroundTurn = options.backgroundTurn ?? (() => nextTurn());
  let held = false;
  const urgent: (() => void)[] = [];
  const background: (() => void)[] = [];
  /** A turn is under way for the first background waiter. */
  let turning = false;

  /** On a turn of its own, hand a free connection to the first background waiter. */
  function nextBackground(): void {
    if (turning || background.length === 0) return;
    turning = true;
    void backgroundTurn().then(() => {
      turning = false;
      // Still held (a transaction, or urgent work): its release() takes the next turn.
      if (held) return;
      const next = background.shift();
      if (next === undefined) return;
      held = true;
      next();
      nextBackground();
    });
  }

  return {
    acquire(isUrgent) {
      if (isUrgent) {
        if (!held) {
          held = true;
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => urgent.push(resolve));
      }
      return new Promise<void>((resolve) => {
        background.push(resolve);
        nextBackground();
      });
    },
    release() {
      const next = urgent.shift();
      if (next) {
        next();
        return;
      }
      held = false;
      nextBackground();
    },
    idle: () => !held,
    waiting: () => ({ urgent: urgent.length, background: background.length }),
  };
}
