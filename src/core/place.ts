/**
 * A place: where runs are asked for and settings live, a Slack channel or a GitHub
 * repository, named by its settings scope (`slack:{team}:{channel}`, `github:{owner}/{repo}`).
 * Budgets count the runs of a place over a calendar month in UTC.
 */
import { settingsScopeOf } from './thread-key.js';

/**
 * The prefix every thread key of the place starts with (its channel's, repository's, team's,
 * or a Jira project's: `jira:{site}:PROJ-`, the issue keys of the project).
 */
export function placeThreadPrefix(scope: string): string {
  if (scope.startsWith('jira:')) return `${scope}-`;
  return scope.startsWith('github:') ? `${scope}#` : `${scope}:`;
}

/**
 * Refusal posts (to people who may not use the relay) a place gets per refusal window, then
 * silence: a crowd of outsiders cannot spend the bot's write quota that members' notices use.
 */
export const REFUSALS_PER_PLACE = 10;

/** The cap on refusals told in the place of a thread (see REFUSALS_PER_PLACE). */
export function refusalCapOf(threadKey: string): { prefix: string; max: number } | undefined {
  const scope = settingsScopeOf(threadKey);
  return scope === undefined
    ? undefined
    : { prefix: placeThreadPrefix(scope), max: REFUSALS_PER_PLACE };
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
 * Where a person's own settings live (their budget) and the thread-key prefix of the runs
 * that count for it, keyed by the platform's id of the person: on Slack per workspace, by
 * user id (ids are per workspace); on GitHub per repository, by login in lower case (GitHub
 * logins are case-insensitive), so a budget set in one repository holds there only; on Jira
 * per project of a site, by Atlassian account id (named `accountid:<id>` by a mention, or as
 * the runs record it, bare).
 * Undefined where the platform has no person budgets (Linear) or the key does not decode.
 */
export function personScope(
  threadKey: string,
  personId: string,
): { scope: string; runsPrefix: string } | undefined {
  if (threadKey.startsWith('jira:')) {
    const project = /^jira:([^:]+):([A-Za-z][A-Za-z0-9_]*)-\d+$/.exec(threadKey);
    if (!project) return undefined;
    const [, site, key] = project;
    const id = personId.replace(/^accountid:/, '');
    return {
      scope: `jira-user:${site}:${key!.toUpperCase()}:${id}`,
      runsPrefix: `jira:${site}:${key}-`,
    };
  }
  if (threadKey.startsWith('github:')) {
    const repo = /^github:([^#]+)#/.exec(threadKey)?.[1];
    return repo === undefined
      ? undefined
      : { scope: `github-user:${repo}:${personId.toLowerCase()}`, runsPrefix: `github:${repo}#` };
  }
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
