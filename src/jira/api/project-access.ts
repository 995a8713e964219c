/**
 * Who may use the relay in a Jira project, asked of Jira after the webhook was answered:
 * acting (start, steer, stop, cancel) needs the project's Browse Projects and Add Comments
 * permissions; changing its defaults (`config key=value`) needs Administer Projects. Answers
 * are cached for five minutes per person, project and right; a failed question is `unknown`,
 * never allowed. Jira answers for another person through "Find users with permissions"
 * (`GET /rest/api/3/user/permission/search`), which needs the relay's account to administer
 * the project.
 */
import {
  systemClock,
  type Clock,
  type Logger,
  type PlaceAccess,
  type PlaceAccessVerdict,
  type PlaceRight,
} from '../../core/ports/index.js';
import { decodeThreadKey, jiraProjectOf } from '../../core/thread-key.js';
import type { JiraSites } from '../sites.js';

export const CACHE_MS = 5 * 60_000;

const RIGHTS: Record<PlaceRight, { permissions: string[]; need: string }> = {
  act: {
    permissions: ['BROWSE_PROJECTS', 'ADD_COMMENTS'],
    need: 'can browse this Jira project and comment on its issues',
  },
  configure: { permissions: ['ADMINISTER_PROJECTS'], need: 'administer this Jira project' },
};

export function createProjectAccess(deps: {
  sites: JiraSites;
  logger: Logger;
  clock?: Clock;
}): PlaceAccess {
  const clock = deps.clock ?? systemClock;
  const cache = new Map<string, { verdict: PlaceAccessVerdict; at: number }>();
  return {
    async checkPlace({ threadKey, person, wants }) {
      const addr = decodeThreadKey(threadKey);
      if (addr?.platform !== 'jira') return { kind: 'unknown', reason: 'not a Jira thread' };
      const project = jiraProjectOf(addr.issueKey);
      const key = `${addr.site}|${project}|${person}|${wants}`;
      const now = clock.now();
      const cached = cache.get(key);
      if (cached && now - cached.at < CACHE_MS) return cached.verdict;
      const right = RIGHTS[wants];
      let verdict: PlaceAccessVerdict;
      try {
        const site = await deps.sites.resolve(addr.site);
        if (site === undefined)
          return { kind: 'unknown', reason: 'agent-relay does not serve this Jira site' };
        const holds = await site.client.holdsPermissions(project, person, right.permissions);
        verdict = holds ? { kind: 'allowed' } : { kind: 'refused', need: right.need };
      } catch (err) {
        deps.logger.warn({ project, wants, err: String(err) }, 'Jira permission check failed');
        return { kind: 'unknown', reason: err instanceof Error ? err.message : String(err) };
      }
      cache.set(key, { verdict, at: now });
      if (cache.size > 5_000) cache.delete(cache.keys().next().value as string);
      return verdict;
    },
  };
}
