/**
 * A place: where runs are asked for and settings live, a Slack channel or a GitHub
 * repository, named by its settings scope (`slack:{team}:{channel}`, `github:{owner}/{repo}`).
 * Budgets count the runs of a place over a calendar month in UTC.
 */

/**
 * The prefix every thread key of the place starts with (its channel's, repository's, team's,
 * or a Jira project's: `jira:{site}:PROJ-`, the issue keys of the project).
 */
export function placeThreadPrefix(scope: string): string {
  if (scope.startsWith('jira:')) return `${scope}-`;
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

/**
 * Where a person's own settings live (their budget across places) and the thread-key prefix
 * of the runs that count for it: on Slack per workspace (ids are per workspace), on GitHub
 * per login. Undefined for a key that does not decode.
 */
export function personScope(
  threadKey: string,
  personId: string,
): { scope: string; runsPrefix: string } | undefined {
  if (threadKey.startsWith('github:'))
    return { scope: `github-user:${personId}`, runsPrefix: 'github:' };
  const team = /^slack:([^:]+):/.exec(threadKey)?.[1];
  return team === undefined
    ? undefined
    : { scope: `slack-user:${team}:${personId}`, runsPrefix: `slack:${team}:` };
}

/** A `budget` setting's value as US dollars; undefined when unset or not a budget. */
export function budgetOfSetting(value: string | undefined): number | undefined {
  const usd = value === undefined ? NaN : Number(value);
  return Number.isFinite(usd) && usd >= 0 ? usd : undefined;
}
