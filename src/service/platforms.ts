/**
 * Slack and GitHub, wired from the config: each platform's notifier (for the outbox) and its
 * ingress (for the HTTP server), or nothing when the platform is off.
 */
import type { Config } from '../config/load.js';
import { createSlackHomeSource } from './slack-home-source.js';
import type {
  AgentService,
  Catalogue,
  Clock,
  Logger,
  Metrics,
  Notifier,
  RepoAccess,
  Store,
  TriggerSink,
} from '../core/ports/index.js';
import type { Platform } from '../core/trigger.js';
import { DEFAULT_COMMAND_WORD } from '../core/command/parse-command.js';
import {
  createGitHubIngress,
  createGitHubNotifier,
  createGitHubRepoAccess,
  createOutboxRefusalSink,
} from '../github/index.js';
import { GITHUB_BODY_LIMIT_BYTES, SLACK_BODY_LIMIT_BYTES } from '../core/ingress/body-limit.js';
import type { GitHubIngress } from '../github/index.js';
import {
  createOAuthRoutes,
  createSlackIngress,
  createSlackPeopleAndPlaces,
  createSlackInstallations,
  createSlackHome,
  createSlackNotifier,
  createTokenCipher,
  fixedBotToken,
  installedBotTokens,
  INSTALL_PATH,
  REDIRECT_PATH,
} from '../slack/index.js';
import type {
  OAuthRoutes,
  SlackIngress,
  SlackInstallations,
  SlackPeopleAndPlaces,
} from '../slack/index.js';
import {
  createLinearIngress,
  createLinearInstallations,
  createLinearNotifier,
  createLinearOAuthRoutes,
  LINEAR_BODY_LIMIT_BYTES,
  LINEAR_INSTALL_PATH,
  LINEAR_REDIRECT_PATH,
} from '../linear/index.js';
import type { LinearIngress, LinearNotifier, LinearOAuthRoutes } from '../linear/index.js';
import type { Route } from './http-server.js';

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

export interface PlatformIngress {
  slack?: SlackIngress;
  /** Slack OAuth install, when on (any number of workspaces). */
  slackOAuth?: OAuthRoutes;
  github?: GitHubIngress;
  linear?: LinearIngress;
  /** Linear OAuth install, when on. */
  linearOAuth?: LinearOAuthRoutes;
}

/** `POST /slack/events` and `POST /github/webhooks`, for the platforms that are on. */
export function platformRoutes(ingress: PlatformIngress): Route[] {
  const routes: Route[] = [];
  const { slack, github, slackOAuth, linear, linearOAuth } = ingress;
  if (slack)
    routes.push({
      path: '/slack/events',
      methods: ['POST'],
      bodyLimitBytes: SLACK_BODY_LIMIT_BYTES,
      handler: (q, s) => slack.handle(q, s),
    });
  if (slackOAuth)
    routes.push(
      { path: INSTALL_PATH, methods: ['GET'], handler: (q, s) => slackOAuth.install(q, s) },
      { path: REDIRECT_PATH, methods: ['GET'], handler: (q, s) => slackOAuth.redirect(q, s) },
    );
  if (github)
    routes.push({
      path: '/github/webhooks',
      methods: ['POST'],
      bodyLimitBytes: GITHUB_BODY_LIMIT_BYTES,
      handler: (q, s, body) => github.handle(q, s, body),
    });
  if (linearOAuth)
    routes.push(
      { path: LINEAR_INSTALL_PATH, methods: ['GET'], handler: (q, s) => linearOAuth.install(q, s) },
      {
        path: LINEAR_REDIRECT_PATH,
        methods: ['GET'],
        handler: (q, s) => linearOAuth.redirect(q, s),
      },
    );
  if (linear)
    routes.push({
      path: '/linear/webhooks',
      methods: ['POST'],
      bodyLimitBytes: LINEAR_BODY_LIMIT_BYTES,
      handler: (q, s, body) => linear.handle(q, s, body),
    });
  return routes;
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

export function createPlatforms(deps: PlatformDeps): Platforms {
  const { config, clock, logger } = deps;
  const o = deps.overrides ?? {};
  const word = commandWord(config);
  const slack = config.slack;
  const github = config.github;

  const installations: SlackInstallations | undefined = slack?.oauth
    ? createSlackInstallations({
        repo: deps.store.installations,
        cipher: createTokenCipher(slack.oauth.encryptionKey),
        clock,
        logger,
      })
    : undefined;
  const home = slack
    ? createSlackHome({
        source: createSlackHomeSource({
          store: deps.store,
          clock,
          ...(deps.agent ? { agent: deps.agent } : {}),
        }),
        tokens: installations
          ? installedBotTokens(installations, slack.botToken)
          : fixedBotToken(slack.botToken ?? ''),
        apiUrl: slack.apiUrl,
        logger,
        clock,
        ...(deps.catalogue ? { catalogue: deps.catalogue } : {}),
        ...(o.slackHomeRefreshMs === undefined ? {} : { minRefreshMs: o.slackHomeRefreshMs }),
      })
    : undefined;
  const slackNotifier = slack
    ? createSlackNotifier({
        ...(home
          ? { onRunShown: (key: string, user: string | undefined) => home.runChanged(key, user) }
          : {}),
        ...(slack.botToken === undefined ? {} : { botToken: slack.botToken }),
        ...(installations ? { tokens: installedBotTokens(installations, slack.botToken) } : {}),
        apiUrl: slack.apiUrl,
        logger,
        clock,
      })
    : undefined;
  const githubNotifier = github
    ? createGitHubNotifier({
        auth: github.auth,
        apiUrl: github.apiUrl,
        logger,
        clock,
        render: { commandWord: word, botHandle: github.botHandle },
        ...(deps.store.reactionIds ? { reactionIds: deps.store.reactionIds } : {}),
        ...(o.githubMinWriteIntervalMs === undefined
          ? {}
          : { minWriteIntervalMs: o.githubMinWriteIntervalMs }),
      })
    : undefined;

  const linear = config.linear;
  const linearInstallations = linear?.oauth
    ? createLinearInstallations({
        repo: deps.store.installations,
        cipher: createTokenCipher(linear.oauth.encryptionKey),
        logger,
      })
    : undefined;
  const linearNotifier = linear
    ? createLinearNotifier({
        apiUrl: linear.apiUrl,
        ...(linear.token === undefined ? {} : { token: linear.token }),
        ...(linearInstallations
          ? { tokenFor: (org: string) => linearInstallations.tokenFor(org) }
          : {}),
        logger,
        clock,
        ...(o.linearKeepAliveMs === undefined ? {} : { keepAliveMs: o.linearKeepAliveMs }),
        ...(deps.store.linearSessions ? { sessions: deps.store.linearSessions } : {}),
      })
    : undefined;

  const repoAccess =
    github && githubNotifier
      ? createGitHubRepoAccess({
          clients: githubNotifier.clients,
          minimum: github.minPermission,
          clock,
          logger,
        })
      : undefined;

  const slackPeople =
    slack && (installations || slack.botToken)
      ? createSlackPeopleAndPlaces(
          installations
            ? installedBotTokens(installations, slack.botToken)
            : fixedBotToken(slack.botToken ?? ''),
          { ...(slack.apiUrl === undefined ? {} : { apiUrl: slack.apiUrl }), logger },
        )
      : undefined;

  return {
    ...(slackPeople ? { slackPeople } : {}),
    ...(linearNotifier ? { linear: linearNotifier } : {}),
    notifiers: {
      ...(slackNotifier ? { slack: slackNotifier } : {}),
      ...(githubNotifier ? { github: githubNotifier } : {}),
      ...(linearNotifier ? { linear: linearNotifier } : {}),
    },
    ...(repoAccess ? { repoAccess } : {}),
    ingress(sink, wakeOutbox) {
      const slackIngress = slack
        ? createSlackIngress({
            signingSecret: slack.signingSecret ?? '',
            ...(slack.botToken === undefined ? {} : { botToken: slack.botToken }),
            ...(installations ? { installations } : {}),
            ...(home ? { home } : {}),
            appToken: slack.appToken,
            apiUrl: slack.apiUrl,
            commandName: slack.command,
            allowedChannels: slack.allowedChannels,
            allowedUsers: slack.allowedUsers,
            allowedTeams: slack.allowedTeams,
            allowAnyWorkspace: slack.allowAnyWorkspace,
            adminUsers: slack.adminUsers,
            allowGuests: slack.allowGuests,
            ...(deps.catalogue ? { catalogue: deps.catalogue } : {}),
            allowExternalUsers: slack.allowExternalUsers,
            sink,
            logger,
            clock,
            replyInThreadWithoutMention: slack.replyWithoutMention,
            ...(o.slackBotUserId === undefined ? {} : { botUserId: o.slackBotUserId }),
            ...(o.slackTeamId === undefined ? {} : { teamId: o.slackTeamId }),
          })
        : undefined;
      const githubIngress =
        github && githubNotifier
          ? createGitHubIngress({
              secret: github.webhookSecret,
              previousSecret: github.previousWebhookSecret,
              botHandle: github.botHandle,
              triggerLabel: github.triggerLabel,
              allowedAssociations: github.allowedAssociations,
              commandWord: word,
              sink,
              refusals: createOutboxRefusalSink({
                store: deps.store,
                clock,
                onQueued: () => wakeOutbox?.('github'),
              }),
              logger,
              clock,
              metrics: deps.metrics,
              onInstallation: (owner, repo, id) =>
                githubNotifier.learnInstallation(owner, repo, id),
            })
          : undefined;
      const slackOAuth =
        slack?.oauth && installations
          ? createOAuthRoutes({
              clientId: slack.oauth.clientId,
              clientSecret: slack.oauth.clientSecret,
              stateSecret: slack.oauth.stateSecret,
              installationStore: installations.store,
              mayInstall: (q) =>
                slack.allowAnyWorkspace ||
                (q.teamId !== undefined && slack.allowedTeams.includes(q.teamId)) ||
                (q.enterpriseId !== undefined && slack.allowedTeams.includes(q.enterpriseId)),
              ...(deps.store.usedOnce
                ? {
                    useStateOnce: (state: string, expiresAt: number) =>
                      deps.store.usedOnce!.use(state, expiresAt, deps.clock.now()),
                  }
                : {}),
              ...(slack.apiUrl === undefined ? {} : { apiUrl: slack.apiUrl }),
              ...(o.slackAuthorizationUrl === undefined
                ? {}
                : { authorizationUrl: o.slackAuthorizationUrl }),
              logger,
            })
          : undefined;
      const linearIngress =
        linear && linearNotifier
          ? createLinearIngress({
              secret: linear.webhookSecret,
              allowedTeams: linear.allowedTeams,
              sink,
              logger,
              clock,
              metrics: deps.metrics,
              isAdmin: (organizationId, userId) => linearNotifier.isAdmin(organizationId, userId),
              onRefused: (sessionId, organizationId) => {
                const body =
                  "Agent runs aren't available for this team's issues here. Please ask whoever " +
                  'runs agent-relay to add the team to LINEAR_ALLOWED_TEAMS.';
                linearNotifier
                  .tell(organizationId, sessionId, { content: { type: 'error', body } })
                  .catch((err: unknown) =>
                    logger.warn(
                      { err, sessionId },
                      'could not tell a Linear session it was refused',
                    ),
                  );
              },
            })
          : undefined;
      const linearOAuth =
        linear?.oauth && linearInstallations
          ? createLinearOAuthRoutes({
              clientId: linear.oauth.clientId,
              clientSecret: linear.oauth.clientSecret,
              apiUrl: linear.apiUrl,
              allowedOrganizations: linear.oauth.allowedOrganizations,
              installations: linearInstallations,
              ...(deps.store.usedOnce
                ? {
                    useStateOnce: (state: string, expiresAt: number) =>
                      deps.store.usedOnce!.use(`linear:${state}`, expiresAt, deps.clock.now()),
                  }
                : {}),
              ...(o.linearAuthorizationUrl === undefined
                ? {}
                : { authorizationUrl: o.linearAuthorizationUrl }),
              clock,
              logger,
            })
          : undefined;
      return {
        slack: slackIngress,
        github: githubIngress,
        ...(linearIngress ? { linear: linearIngress } : {}),
        ...(linearOAuth ? { linearOAuth } : {}),
        ...(slackOAuth ? { slackOAuth } : {}),
      };
    },
  };
}
