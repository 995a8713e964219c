/**
 * Microsoft Teams as a platform (one single-tenant bot registration): the messaging endpoint
 * (`POST /teams/messages`: the Bot Connector's signed activities), the notifier (activities
 * sent and edited through the Bot Connector REST API with the bot's token), and who may (the
 * allowed tenants, people, channels and admins, decided at the ingress where the activity
 * says who asks). Hosted on the relay's own HTTP server, not on a port of the SDK's.
 */
import type { PlatformDeps, PlatformModule } from '../platform/contract.js';
import { cloudEndpoints, proactiveServiceUrl } from './api/cloud.js';
import { splitConversationId } from './api/activity.js';
import { createConnectorClient } from './api/connector-client.js';
import { connectorCredential } from './api/managed-identity.js';
import { createShownRuns, refreshView } from './api/shown-runs.js';
import { createTeamsIngress, TEAMS_BODY_LIMIT_BYTES } from './ingress/teams-ingress.js';
import { createTokenCheck } from './ingress/verify-token.js';
import { createTeamsNotifier } from './notify/notifier.js';
import { renderStatusCard } from './render/render-message.js';

/** Conversations whose serviceUrl a replica remembers. */
const HEARD_LIMIT = 10_000;

export function createTeams(deps: PlatformDeps): PlatformModule | undefined {
  const teams = deps.config.teams;
  if (!teams) return undefined;
  const { logger, clock, overrides } = deps;
  const cloud = cloudEndpoints(teams.cloud);
  const client = createConnectorClient({
    ...connectorCredential(teams, cloud, logger),
    appId: teams.appId,
    tenantId: teams.tenantId,
    loginEndpoint: overrides?.teamsLoginEndpoint ?? cloud.loginEndpoint,
    botScope: cloud.botScope,
  });
  const heard = new Map<string, string>();
  const fallback = proactiveServiceUrl(teams.cloud);
  const render = { botHandle: teams.botHandle };
  const shown = createShownRuns();
  const notifier = createTeamsNotifier({
    client,
    serviceUrlOf: (conversation) => heard.get(conversation) ?? fallback,
    render,
    shown,
    logger,
    clock,
  });
  const tokens = createTokenCheck({
    appId: teams.appId,
    issuer: cloud.tokenIssuer,
    openIdMetadataUrl: overrides?.teamsOpenIdMetadataUrl ?? cloud.openIdMetadataUrl,
    logger: logger.child({ component: 'teams-token' }),
  });

  return {
    name: 'teams',
    notifier,
    routes({ sink }) {
      const ingress = createTeamsIngress({
        tokens,
        appId: teams.appId,
        allowedTenants: teams.allowedTenants,
        allowedUsers: teams.allowedUsers,
        allowedChannels: teams.allowedChannels,
        adminUsers: teams.adminUsers,
        allowGuests: teams.allowGuests,
        sink,
        runs: deps.store.runs,
        refreshCard(run, live) {
          return renderStatusCard(refreshView(run, shown, clock.now()), render, { live });
        },
        heard(conversationId, serviceUrl) {
          const { conversation } = splitConversationId(conversationId);
          heard.delete(conversation);
          heard.set(conversation, serviceUrl);
          if (heard.size > HEARD_LIMIT) heard.delete(heard.keys().next().value as string);
        },
        logger,
        clock,
      });
      return [
        {
          path: '/teams/messages',
          methods: ['POST'],
          bodyLimitBytes: TEAMS_BODY_LIMIT_BYTES,
          acknowledges: 'teams',
          handler: (q, s, body) => ingress.handle(q, s, body),
        },
      ];
    },
    async start() {},
    async stop() {},
    async close() {},
  };
}
