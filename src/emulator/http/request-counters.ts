/**
 * Counts contract requests by route template ('GET /agent/runs', 'POST /agent/runs', …;
 * 'unmatched' for unknown paths), for benchmarks measuring requests per minute.
 */
import type { RequestCounters } from '../model/types.js';

export interface MutableRequestCounters extends RequestCounters {
  inc(route: string): void;
}

export function createRequestCounters(): MutableRequestCounters {
  let counts = new Map<string, number>();
  let total = 0;
  return {
    inc(route) {
      counts.set(route, (counts.get(route) ?? 0) + 1);
      total += 1;
    },
    get: (route) => counts.get(route) ?? 0,
    snapshot: () => Object.fromEntries(counts),
    total: () => total,
    reset() {
      counts = new Map();
      total = 0;
    },
  };
}
