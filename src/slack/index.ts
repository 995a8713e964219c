/**
 * The Slack side, as the rest of the service sees it: the ingress (Bolt, HTTP or Socket
 * Mode: events, slash commands, buttons -> Triggers), the notifier (posts, edits, reactions,
 * thread history for the outbox) and the Block Kit renderer. Folders: ingress/, render/,
 * notify/, and api/ for what they share (the Web API client, addresses, error names).
 */
export {
  createSlackIngress,
  SlackAuthError,
  type SlackIngress,
  type SlackIngressDeps,
} from './ingress/slack-ingress.js';
export {
  createSlackNotifier,
  REACTION_EMOJI,
  type SlackNotifier,
  type SlackNotifierDeps,
} from './notify/notifier.js';
export { renderSlackMessage, type SlackMessage } from './render/render-blocks.js';
export { CANCEL_ACTION_ID, OPEN_SESSION_ACTION_ID } from './api/action-ids.js';
export { createSlackInstallations, type SlackInstallations } from './install/installations.js';
export {
  createOAuthRoutes,
  BOT_SCOPES,
  INSTALL_PATH,
  REDIRECT_PATH,
  type OAuthRoutes,
} from './install/oauth-routes.js';
export { installedBotTokens } from './api/bot-tokens.js';
export { createSlackHome, type SlackHome } from './home/slack-home.js';
export type { HomeSource, PersonalDefaults } from './home/home-source.js';
export { PERSONAL_KEYS } from './home/home-source.js';
export { fixedBotToken, type BotTokenSource } from './api/bot-tokens.js';
export { createSlackPeopleAndPlaces, type SlackPeopleAndPlaces } from './api/people-and-places.js';
export { slackPlatform } from './platform.js';
