/**
 * Deferral: a trigger whose first sign is out steps back to the inbox when enough triggers
 * already wait for the service (or the service asked to be left alone), rather than hold one
 * of the hand's slots while it waits its turn in the service lane. Held, a slow create's
 * waiters fill the hand (1,024) and every newer trigger, first sign included, waits in the
 * inbox behind them. Deferred, the row keeps its thread's place (nothing newer in that thread
 * goes ahead of it), and the inbox takes it back, the oldest request first, only as the
 * service makes room: a deep backlog costs one claim per batch of room, never a claim per
 * trigger and poll (docs/decisions/first-sign-lane.md).
 */
import type { InboxItem } from '../../core/ports/index.js';

export interface DeferralOptions {
  /**
   * How many triggers past their first sign may be in hand at once (in flight to the service
   * or waiting for the lane); past that, new ones step back.
   */
  admitted: number;
  /** Whether the service asked to be left alone (a pause of the lane). */
  paused(): boolean;
  /** How often to look for triggers another replica (or an earlier process) deferred. */
  lookEveryMs: number;
}

/** What a trigger knows when it asks whether to step back. */
export interface DeferCandidate {
  item: Pick<InboxItem, 'resumed'>;
  /** An earlier attempt may have reached the service: it reconciles first, and is not deferred. */
  mayHaveRunBefore: boolean;
  /** It holds something until settled (a budget's start hold): it keeps its place in hand. */
  holds: boolean;
}

export interface Deferral {
  /**
   * Whether this trigger steps back now. When it does, newer ones follow it to the line (the
   * order the requests came in); when it does not, it counts as admitted until `leave`.
   */
  shouldDefer(job: DeferCandidate): boolean;
  /** How many deferred triggers the inbox may take back now (0: none, or not worth a look). */
  room(now: number): number;
  /** The inbox asked for `asked` deferred triggers and got `got` (each admitted until `leave`). */
  taken(asked: number, got: number, now: number): void;
  /** An admitted trigger is done with the service; true: wake the inbox to take more back. */
  leave(): boolean;
}

export function createDeferral(options: DeferralOptions): Deferral {
  const bound = Math.max(1, options.admitted);
  let admitted = 0;
  // Some trigger may be deferred: this process deferred one, or has not looked yet (a restart
  // finds the rows an earlier process deferred). While it is so, new triggers step back too.
  let backlog = true;
  let lookedAt = Number.NEGATIVE_INFINITY;
  // Triggers deferred so far, and that count when the inbox last looked: one deferred while a
  // look was under way may not be in what it found.
  let deferred = 0;
  let deferredAtLook = 0;

  // Room is taken back in batches of a quarter of the bound at least: a slot that frees is not
  // a claim, and the lane still has calls waiting while the batch is routed.
  const freeRoom = () => {
    if (options.paused()) return 0;
    const room = bound - admitted;
    return room * 4 >= bound ? room : 0;
  };

  return {
    shouldDefer(job) {
      // A resumed trigger was admitted when the inbox took it back.
      if (job.item.resumed) return false;
      const exempt = job.mayHaveRunBefore || job.holds;
      if (!exempt && (backlog || options.paused() || admitted >= bound)) {
        backlog = true;
        deferred += 1;
        return true;
      }
      admitted += 1;
      return false;
    },
    room(now) {
      if (!backlog && now - lookedAt < options.lookEveryMs) return 0;
      deferredAtLook = deferred;
      return freeRoom();
    },
    taken(asked, got, now) {
      admitted += got;
      lookedAt = now;
      if (got < asked && deferred === deferredAtLook) backlog = false;
    },
    leave() {
      admitted = Math.max(0, admitted - 1);
      return backlog && freeRoom() > 0;
    },
  };
}
