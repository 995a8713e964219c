/**
 * How much of a conversation's history the relay reads per workspace. Slack limits
 * `conversations.history` and `conversations.replies` for commercially distributed apps not
 * approved for its Marketplace (since 2025-05-29: one request a minute, at most 15 messages a
 * request). An internal or Marketplace app is not limited, so the relay reads as before until
 * Slack rate-limits one of these reads in a workspace; from then on, in that workspace, it
 * reads one page of 15 (the newest context it can get in one request), and says so once in
 * the log. A read refused meanwhile costs the run its thread context, never the run.
 */
import type { Logger } from '../../core/ports/index.js';

export interface HistoryPage {
  /** Messages per request (Slack's `limit`). */
  limit: number;
  /** Requests (pages) per read at most. */
  maxPages: number;
}

export interface HistoryLimit {
  /** How to read a history in this workspace now. */
  pageOf(team: string): HistoryPage;
  /** Slack rate-limited a history read in this workspace. */
  rateLimited(team: string, method: string): void;
}

export const FULL_PAGE: HistoryPage = { limit: 200, maxPages: 5 };
/** Slack's limit for apps distributed outside its Marketplace. */
export const LIMITED_PAGE: HistoryPage = { limit: 15, maxPages: 1 };
/** Workspaces remembered at most (the oldest forgotten first). */
const MAX_TEAMS = 10_000;

export function createHistoryLimit(logger: Logger): HistoryLimit {
  const limited = new Set<string>();
  return {
    pageOf: (team) => (limited.has(team) ? LIMITED_PAGE : FULL_PAGE),
    rateLimited(team, method) {
      if (limited.has(team)) return;
      limited.add(team);
      if (limited.size > MAX_TEAMS) limited.delete(limited.values().next().value!);
      logger.warn(
        { teamId: team, method, limit: LIMITED_PAGE.limit },
        'Slack rate-limited a history read: apps distributed outside the Slack Marketplace may ' +
          'read conversations.history/replies once a minute, 15 messages at a time; reading one ' +
          'page of 15 in this workspace from now on (thread context may be shorter or missing)',
      );
    },
  };
}
