/**
 * The platform contract: what a platform (Slack, GitHub, Linear, and the ones to come) gives
 * the service, and what the service gives it. Each platform folder exports one
 * `PlatformDefinition` (its `platform.ts`, light: the module it builds, in `module.ts`, is
 * imported only when the platform is on); `src/service/platforms/list.ts` names them; the
 * composition root iterates over the ones the configuration turns on and names none.
 */
import type { Config } from '../config/load.js';
import type {
  AgentService,
  Catalogue,
  Clock,
  Logger,
  Metrics,
  Notifier,
  Platform,
  PlatformCapabilities,
  PlatformAccess,
  PlatformStateStore,
  QueueStore,
  RunStore,
  TriggerSink,
} from '../core/ports/index.js';
import { RelayError } from '../core/relay-error.js';
import type { Route } from './route.js';

/** Knobs tests and the demo set on the platforms (never from the environment). */
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
  /**
   * Teams: where the keys that sign the Bot Connector's tokens are published, and where the
   * bot's own token is asked (a local fake's, in tests, the demo and the bench only).
   */
  teamsOpenIdMetadataUrl?: string;
  teamsLoginEndpoint?: string;
}

/** What every platform is given: the config, the store, the shared services. */
export interface PlatformDeps {
  config: Config;
  /**
   * The runs' records (a platform shows them), what platforms keep for every replica, and the
   * named leases (one replica at a time renews a token).
   */
  store: RunStore & PlatformStateStore & Pick<QueueStore, 'leases'>;
  /** The service's environments and models (Slack's forms offer them). */
  catalogue?: Catalogue;
  /** The service itself, for surfaces that show a run's detail (Slack's App Home). */
  agent?: AgentService;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  overrides?: PlatformOverrides;
}

/** What the routes are given once the engine exists. */
export interface RouteContext {
  /** Where a verified event goes: the inbox. */
  sink: TriggerSink;
  /** Tell the outbox a notification of this platform was queued outside the engine. */
  wakeOutbox(): void;
}

/** Who a place's people are, for the console's roles. */
export interface PlaceDirectory {
  /** Whether a person of a workspace is a guest (undefined: could not tell). */
  isGuest?(tenant: string, user: string): Promise<boolean | undefined>;
  /** Whether the place a thread belongs to is public (a public channel). */
  isPublicPlace?(threadKey: string): Promise<boolean>;
}

export type { PlatformCapabilities } from '../core/ports/index.js';

/** One platform, on: built from the configuration by its definition. */
export interface PlatformModule {
  readonly name: Platform;
  /** Delivers the outbox's notifications to the platform. */
  readonly notifier: Notifier;
  /**
   * With `sessionKeepAlive`: how long a working run's agent session may stay quiet before the
   * runs' session keeper queues a keep-alive (the notifier's `keepAlive` writes it).
   */
  readonly keepAliveMs?: number;
  /**
   * A person's access to a place, asked by the runs after the acknowledgement (GitHub:
   * repository permission, `check`; Jira: a project's permissions, Linear: a workspace's
   * admins, `checkPlace`).
   */
  readonly access?: PlatformAccess;
  /** Answers about people and places, for the console. */
  readonly directory?: PlaceDirectory;
  /** The routes it serves on the one HTTP server (webhooks, events, install pages). */
  routes(context: RouteContext): Route[];
  /** Start receiving (Socket Mode connects here); a `PlatformStartError` stops the start-up. */
  start(): Promise<void>;
  /** Stop receiving; called before the workers drain. */
  stop(): Promise<void>;
  /** Release what is left (timers, connections); called after the workers drained. */
  close(): Promise<void>;
}

export interface PlatformDefinition {
  readonly name: Platform;
  /** What it can do, whether it is on or not (the runs and docs/platforms.md read them). */
  readonly capabilities: PlatformCapabilities;
  /**
   * The platform built from the configuration, or undefined when the configuration leaves it
   * off. Its code, and its SDK with it, is loaded here, only for a platform that is on.
   */
  create(deps: PlatformDeps): Promise<PlatformModule | undefined>;
}

/** What a platform folder's `platform.ts` says of itself; its `module.ts` builds the rest. */
export interface PlatformDescription {
  readonly name: Platform;
  readonly capabilities: PlatformCapabilities;
  /** Whether the configuration turns the platform on. */
  isOn(config: Config): boolean;
  /** Imports the platform's module (the only import of it) and gives its builder. */
  load(): Promise<(deps: PlatformDeps) => PlatformModule | undefined>;
}

/**
 * A definition that stays light: a relay loads the libraries of the platforms it serves and
 * no others (a Slack-only relay never loads Microsoft's Teams SDK).
 */
export function definePlatform(description: PlatformDescription): PlatformDefinition {
  const { name, capabilities, isOn, load } = description;
  return {
    name,
    capabilities,
    async create(deps) {
      if (!isOn(deps.config)) return undefined;
      return (await load())(deps);
    },
  };
}

/**
 * A platform's credential was refused at start (`slack_auth_failed`), or the place it was
 * pointed at is of a kind it cannot speak to (`jira_not_supported`: a Data Center site).
 */
export type PlatformStartCode = `${Platform}_auth_failed` | `${Platform}_not_supported`;

/** A platform could not start: start-up ends with this code and message. */
export class PlatformStartError extends RelayError<PlatformStartCode> {
  override readonly name = 'PlatformStartError';
}
