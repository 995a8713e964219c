/** What every platform's wiring is given: the config, the store, the shared services. */
import type { Config } from '../../config/load.js';
import type {
  AgentService,
  Catalogue,
  Clock,
  Logger,
  Metrics,
  Store,
} from '../../core/ports/index.js';
import { DEFAULT_COMMAND_WORD } from '../../core/command/parse-command.js';

export interface PlatformOverrides {
  /** Slack: skip auth.test by naming the bot (tests, demo). */
  slackBotUserId?: string;
  slackTeamId?: string;
  /** Fewest ms between two App Home refreshes of one person (tests). */
  slackHomeRefreshMs?: number;
  /** Slack's OAuth consent page (tests). */
  slackAuthorizationUrl?: string;
  /** GitHub: spacing of writes (tests and the demo pass 0). */
  githubMinWriteIntervalMs?: number;
  /** Linear: how long a live session may stay quiet before a keep-alive thought (tests). */
  linearKeepAliveMs?: number;
  /** Linear's OAuth consent page (tests). */
  linearAuthorizationUrl?: string;
}

export interface PlatformDeps {
  config: Config;
  store: Store;
  /** The service's environments and models, offered in Slack's forms. */
  catalogue?: Catalogue;
  /** App Home shows the service's detail of a person's runs (session, pull requests). */
  agent?: AgentService;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  overrides?: PlatformOverrides;
}

export function commandWord(config: Config): string {
  return config.slack?.command ?? DEFAULT_COMMAND_WORD;
}
