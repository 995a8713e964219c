/**
 * Slack wired from the config: its notifier (and App Home, refreshed as runs change), its
 * answers on people and places for the console, and its ingress: the events route and, when
 * on, the OAuth install of any number of workspaces.
 */
import type { Notifier, TriggerSink } from '../../core/ports/index.js';
import { SLACK_BODY_LIMIT_BYTES } from '../../core/ingress/body-limit.js';
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
} from '../../slack/index.js';
import type {
  OAuthRoutes,
  SlackIngress,
  SlackInstallations,
  SlackPeopleAndPlaces,
} from '../../slack/index.js';
import type { Route } from '../http-server.js';
import { createSlackHomeSource } from '../slack-home-source.js';
import type { PlatformDeps } from './platform-deps.js';

export interface SlackIngresses {
  slack?: SlackIngress;
  /** Slack OAuth install, when on (any number of workspaces). */
  slackOAuth?: OAuthRoutes;
}

export interface SlackPlatform {
  notifier?: Notifier;
  /** Slack's answers on guests and public channels, for the console's roles. */
  people?: SlackPeopleAndPlaces;
  ingress(sink: TriggerSink): SlackIngresses;
}

export function createSlackPlatform(deps: PlatformDeps): SlackPlatform {
  const { config, clock, logger } = deps;
  const o = deps.overrides ?? {};
  const slack = config.slack;

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
    ...(slackNotifier ? { notifier: slackNotifier } : {}),
    ...(slackPeople ? { people: slackPeople } : {}),
    ingress(sink) {
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
      return { slack: slackIngress, ...(slackOAuth ? { slackOAuth } : {}) };
    },
  };
}

/** `POST /slack/events`, and the OAuth install's two pages when on. */
export function slackRoutes({ slack, slackOAuth }: SlackIngresses): Route[] {
  const routes: Route[] = [];
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
  return routes;
}
