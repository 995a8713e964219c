/**
 * A place: where runs are asked for and settings live, a Slack channel or a GitHub
 * repository, named by its settings scope (`slack:{team}:{channel}`, `github:{owner}/{repo}`).
 * Budgets count the runs of a place over a calendar month in UTC.
 */

/** The prefix every thread key of the place starts with (its channel's or repository's). */
export function placeThreadPrefix(scope: string): string {
  return scope.startsWith('github:') ? `${scope}#` : `${scope}:`;
}

/** Epoch ms of the first instant of `now`'s calendar month, UTC. */
export function monthStartUtc(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** Epoch ms of the first instant of the next calendar month, UTC. */
export function nextMonthStartUtc(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** "2026-11": the month a budget is counted in. */
export function monthKeyUtc(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

/** "November 2026". */
export function monthNameUtc(now: number): string {
  return new Date(now).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}
