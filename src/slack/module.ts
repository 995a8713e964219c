/**
 * Slack as a platform: its notifier (and App Home, refreshed as runs change), its answers on
 * people and places for the console, and its routes: the events route and, when on, the
 * OAuth install of any number of workspaces. Socket Mode connects in `start()`.
 */
import { SLACK_BODY_LIMIT_BYTES } from '../core/ingress/body-limit.js';
import { decodeThreadKey } from '../core/thread-key.js';
import { PlatformStartError } from '../platform/contract.js';
import type { PlatformDeps, PlatformModule } from '../platform/contract.js';
import type { Route } from '../platform/route.js';
import { fixedBotToken, installedBotTokens } from './api/bot-tokens.js';
import { createSlackPeopleAndPlaces } from './api/people-and-places.js';
import { createSlackHome } from './home/slack-home.js';
import { createSlackHomeSource } from './home/store-home-source.js';
import { createSlackIngress, SlackAuthError } from './ingress/slack-ingress.js';
import type { SlackIngress } from './ingress/slack-ingress.js';
import { answerPlace } from './ingress/access.js';
import { createPeople } from './ingress/people.js';
import { createSlackInstallations } from './install/installations.js';
import { createOAuthRoutes, INSTALL_PATH, REDIRECT_PATH } from './install/oauth-routes.js';
import { createTokenCipher } from '../platform/token-cipher.js';
import { createSlackNotifier } from './notify/notifier.js';

export function createSlack(deps: PlatformDeps): PlatformModule | undefined {
  const { config, clock, logger } = deps;
  const o = deps.overrides ?? {};
  const slack = config.slack;
  if (!slack) return undefined;

  const installations = slack.oauth
    ? createSlackInstallations({
        repo: deps.store.installations,
        cipher: createTokenCipher(slack.oauth.encryptionKey),
        clock,
        logger,
      })
    : undefined;
  const tokens = installations
    ? installedBotTokens(installations, slack.botToken)
    : fixedBotToken(slack.botToken ?? '');
  const home = createSlackHome({
    source: createSlackHomeSource({
      store: deps.store,
      clock,
      ...(deps.agent ? { agent: deps.agent } : {}),
    }),
    tokens,
    apiUrl: slack.apiUrl,
    logger,
    clock,
    ...(deps.catalogue ? { catalogue: deps.catalogue } : {}),
    ...(o.slackHomeRefreshMs === undefined ? {} : { minRefreshMs: o.slackHomeRefreshMs }),
  });
  const notifier = createSlackNotifier({
    onRunShown: (key: string, user: string | undefined) => home.runChanged(key, user),
    ...(slack.botToken === undefined ? {} : { botToken: slack.botToken }),
    ...(installations ? { tokens: installedBotTokens(installations, slack.botToken) } : {}),
    apiUrl: slack.apiUrl,
    logger,
    clock,
  });
  const lookups =
    installations || slack.botToken
      ? createSlackPeopleAndPlaces(tokens, {
          ...(slack.apiUrl === undefined ? {} : { apiUrl: slack.apiUrl }),
          logger,
        })
      : undefined;
  // Who a person is (guest, outsider, admin): asked by the runs after the acknowledgement,
  // and by App Home and the start form, which answer on the spot; one memory for both.
  const people = createPeople({
    policy: {
      adminUsers: slack.adminUsers,
      allowGuests: slack.allowGuests,
      allowExternalUsers: slack.allowExternalUsers,
    },
    usersInfo: (team, user) =>
      lookups ? lookups.usersInfo(team, user) : Promise.reject(new Error('no Slack bot token')),
    clock,
    logger,
  });

  let ingress: SlackIngress | undefined;
  return {
    name: 'slack',
    notifier,
    access: { checkPlace: (q) => answerPlace(people, q) },
    ...(lookups
      ? {
          directory: {
            isGuest: (team, user) => lookups.isGuest(team, user),
            async isPublicPlace(threadKey) {
              const place = decodeThreadKey(threadKey);
              if (place?.platform !== 'slack') return false;
              return lookups.isPublicChannel(place.team, place.channel);
            },
          },
        }
      : {}),
    routes({ sink }) {
      const events = createSlackIngress({
        signingSecret: slack.signingSecret ?? '',
        ...(slack.botToken === undefined ? {} : { botToken: slack.botToken }),
        ...(installations ? { installations } : {}),
        home,
        appToken: slack.appToken,
        apiUrl: slack.apiUrl,
        commandName: slack.command,
        allowedChannels: slack.allowedChannels,
        allowedUsers: slack.allowedUsers,
        allowedTeams: slack.allowedTeams,
        allowAnyWorkspace: slack.allowAnyWorkspace,
        ...(deps.catalogue ? { catalogue: deps.catalogue } : {}),
        people,
        sink,
        logger,
        clock,
        replyInThreadWithoutMention: slack.replyWithoutMention,
        ...(o.slackBotUserId === undefined ? {} : { botUserId: o.slackBotUserId }),
        ...(o.slackTeamId === undefined ? {} : { teamId: o.slackTeamId }),
      });
      ingress = events;
      const routes: Route[] = [
        {
          path: '/slack/events',
          methods: ['POST'],
          bodyLimitBytes: SLACK_BODY_LIMIT_BYTES,
          acknowledges: 'slack',
          handler: (q, s) => events.handle(q, s),
        },
      ];
      if (slack.oauth && installations) {
        const oauth = createOAuthRoutes({
          clientId: slack.oauth.clientId,
          clientSecret: slack.oauth.clientSecret,
          stateSecret: slack.oauth.stateSecret,
          installationStore: installations.store,
          mayInstall: (q) =>
            slack.allowAnyWorkspace ||
            (q.teamId !== undefined && slack.allowedTeams.includes(q.teamId)) ||
            (q.enterpriseId !== undefined && slack.allowedTeams.includes(q.enterpriseId)),
          useStateOnce: (state: string, expiresAt: number) =>
            deps.store.usedOnce.use(state, expiresAt, deps.clock.now()),
          ...(slack.apiUrl === undefined ? {} : { apiUrl: slack.apiUrl }),
          ...(o.slackAuthorizationUrl === undefined
            ? {}
            : { authorizationUrl: o.slackAuthorizationUrl }),
          logger,
        });
        routes.push(
          { path: INSTALL_PATH, methods: ['GET'], handler: (q, s) => oauth.install(q, s) },
          { path: REDIRECT_PATH, methods: ['GET'], handler: (q, s) => oauth.redirect(q, s) },
        );
      }
      return routes;
    },
    async start() {
      await ingress?.start().catch((err: unknown) => {
        if (err instanceof SlackAuthError)
          throw new PlatformStartError('slack_auth_failed', err.message, { cause: err });
        throw err;
      });
    },
    async stop() {
      await ingress?.stop();
    },
    async close() {},
  };
}
