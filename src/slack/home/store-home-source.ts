/**
 * What Slack's App Home reads and writes, from the store and the agent client: a workspace's
 * recent runs, what a person's runs cost this month, a run's detail (bounded: a slow service leaves the tab with what the store
 * knows), and one person's own defaults, kept as settings under a personal scope.
 */
import type {
  AgentService,
  Clock,
  OptionKey,
  PlatformStateStore,
  RunStore,
} from '../../core/ports/index.js';
import type { HomeSource, PersonalDefaults } from './home-source.js';
import { PERSONAL_KEYS } from './home-source.js';

const DETAIL_TIMEOUT_MS = 2_000;
const personalScope = (team: string, user: string) => `slack-user:${team}:${user}`;

export function createSlackHomeSource(deps: {
  store: RunStore & Pick<PlatformStateStore, 'homeViewers'>;
  agent?: AgentService;
  clock: Clock;
}): HomeSource {
  const { store, agent, clock } = deps;
  return {
    homeOpened: (team, user, at) => store.homeViewers.opened(team, user, at),
    homeOpenedAt: (team, user) => store.homeViewers.openedAt(team, user),
    recentRuns: (team, limit) => store.runs.listRecent(`slack:${team}:`, limit),
    async viewerMonth(team, user, since) {
      const month = await store.runs.usageOfRequesterSince(`slack:${team}:`, user, since);
      return { spentUsd: month.spentUsd, runs: month.costed };
    },
    async runDetail(runId) {
      if (agent === undefined) return undefined;
      try {
        return await agent.getRun(runId, { timeoutMs: DETAIL_TIMEOUT_MS, maxRetries: 0 });
      } catch {
        return undefined;
      }
    },
    async personalDefaults(team, user) {
      const out: PersonalDefaults = {};
      for (const s of await store.settings.list(personalScope(team, user)))
        if ((PERSONAL_KEYS as readonly string[]).includes(s.key))
          out[s.key as (typeof PERSONAL_KEYS)[number]] = s.value;
      return out;
    },
    async setPersonalDefaults(team, user, values) {
      const scope = personalScope(team, user);
      await store.transaction(async (tx) => {
        for (const key of PERSONAL_KEYS) {
          const value = values[key];
          if (value === undefined) continue;
          if (value === '') await tx.settings.unset(scope, key as OptionKey);
          else await tx.settings.set(scope, key as OptionKey, value, user, clock.now());
        }
      });
    },
  };
}
