/**
 * Slack, GitHub and Linear, wired from the config (one file each): each platform's notifier
 * (for the outbox) and its ingress (for the HTTP server), or nothing when the platform is off.
 */
import type { Notifier, RepoAccess, TriggerSink } from '../../core/ports/index.js';
import type { Platform } from '../../core/trigger.js';
import type { GitHubIngress } from '../../github/index.js';
import type { LinearNotifier } from '../../linear/index.js';
import type { SlackPeopleAndPlaces } from '../../slack/index.js';
import type { Route } from '../http-server.js';
import { createGitHubPlatform, githubRoutes } from './github.js';
import { createLinearPlatform, linearRoutes } from './linear.js';
import type { LinearIngresses } from './linear.js';
import type { PlatformDeps } from './platform-deps.js';
import { createSlackPlatform, slackRoutes } from './slack.js';
import type { SlackIngresses } from './slack.js';

export { commandWord } from './platform-deps.js';
export type { PlatformDeps, PlatformOverrides } from './platform-deps.js';

export interface PlatformIngress extends SlackIngresses, LinearIngresses {
  github?: GitHubIngress;
}

/** Each platform's webhook or events route (and its OAuth pages), for the platforms that are on. */
export function platformRoutes(ingress: PlatformIngress): Route[] {
  return [...slackRoutes(ingress), ...githubRoutes(ingress.github), ...linearRoutes(ingress)];
}

export interface Platforms {
  notifiers: Partial<Record<Platform, Notifier>>;
  /** GitHub: a person's repository access (GITHUB_MIN_PERMISSION), for the runs to ask. */
  repoAccess?: RepoAccess;
  /** Slack's answers on guests and public channels, for the console's roles. */
  slackPeople?: SlackPeopleAndPlaces;
  /** Linear's notifier, when on (its keep-alive timer stops at shutdown). */
  linear?: LinearNotifier;
  /**
   * Needs the engine's sink (and its outbox's wake-up, for replies the ingress queues itself):
   * call once the engine exists.
   */
  ingress(sink: TriggerSink, wakeOutbox?: (platform: Platform) => void): PlatformIngress;
}

export function createPlatforms(deps: PlatformDeps): Platforms {
  const slack = createSlackPlatform(deps);
  const github = createGitHubPlatform(deps);
  const linear = createLinearPlatform(deps);
  return {
    ...(slack.people ? { slackPeople: slack.people } : {}),
    ...(linear.notifier ? { linear: linear.notifier } : {}),
    notifiers: {
      ...(slack.notifier ? { slack: slack.notifier } : {}),
      ...(github.notifier ? { github: github.notifier } : {}),
      ...(linear.notifier ? { linear: linear.notifier } : {}),
    },
    ...(github.repoAccess ? { repoAccess: github.repoAccess } : {}),
    ingress(sink, wakeOutbox) {
      return {
        ...slack.ingress(sink),
        github: github.ingress(sink, wakeOutbox),
        ...linear.ingress(sink),
      };
    },
  };
}
