/**
 * The progress reads' share of the service: a token bucket of `perMinute` reads shared by
 * every running run, refilled continuously and holding at most two seconds' worth, so a quiet
 * spell never turns into a burst: over any minute the reads stay within `perMinute` (plus
 * those two seconds). Independent of state tracking, which keeps its
 * own (batch listing) cost.
 */
export interface ReadBudget {
  /** Whole reads that may be made now. */
  available(now: number): number;
  /** Spend `n` reads (at most what `available` said). */
  spend(n: number): void;
  /** Spend nothing until `until` (the service said 429). */
  pause(until: number): void;
}

export function createReadBudget(perMinute: number, startAt: number): ReadBudget {
  const capacity = Math.max(1, perMinute / 30);
  const perMs = perMinute / 60_000;
  let tokens = capacity;
  let at = startAt;
  let pausedUntil = 0;
  return {
    available(now) {
      tokens = Math.min(capacity, tokens + Math.max(0, now - at) * perMs);
      at = Math.max(at, now);
      if (now < pausedUntil || perMinute <= 0) return 0;
      return Math.max(0, Math.floor(tokens));
    },
    spend(n) {
      tokens = Math.max(0, tokens - n);
    },
    pause(until) {
      pausedUntil = Math.max(pausedUntil, until);
      tokens = 0;
    },
  };
}
