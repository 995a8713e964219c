/** The Teams side: the Bot Connector's activities in, activities and cards out (docs/setup-teams.md). */
export { createTeamsIngress, TEAMS_BODY_LIMIT_BYTES } from './ingress/teams-ingress.js';
export { createTokenCheck } from './ingress/verify-token.js';
export { plainTextOf } from './ingress/plain-text.js';
export { CARD_VERBS } from './api/activity.js';
export { SEND_TO_AGENT_COMMAND } from './ingress/to-trigger.js';
export { createTeamsNotifier } from './notify/notifier.js';
export {
  createConnectorClient,
  TeamsApiError,
  type ConnectorClient,
} from './api/connector-client.js';
export type { OutgoingActivity } from './api/connector-client.js';
export { cloudEndpoints, keysUriOf } from './api/cloud.js';
export { connectorCredential, describeCredential } from './api/managed-identity.js';
export {
  ADAPTIVE_CARD,
  renderTeamsMessage,
  renderStatusCard,
  type TeamsRenderOptions,
} from './render/render-message.js';
export { teamsPlatform } from './platform.js';
