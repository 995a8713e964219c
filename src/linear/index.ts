/** The Linear side: agent-session webhooks in, agent activities out (docs/setup-linear.md). */
export {
  createLinearIngress,
  LINEAR_BODY_LIMIT_BYTES,
  type LinearIngress,
  type LinearIngressDeps,
} from './ingress/linear-ingress.js';
export { createOrganizationGate, type OrganizationGate } from './ingress/organization-gate.js';
export {
  createLinearNotifier,
  DEFAULT_KEEP_ALIVE_MS,
  type LinearNotifier,
  type LinearNotifierDeps,
} from './notify/notifier.js';
export { renderActivity, STARTING_THOUGHT } from './render/render-activity.js';
export { createActivity } from './api/requests.js';
export { whoseToken } from './api/oauth.js';
export type { Activity, ActivityContent } from './api/activity-content.js';
export {
  createLinearInstallations,
  type LinearInstallations,
  type TokenSeal,
} from './install/installations.js';
export {
  createLinearOAuthRoutes,
  LINEAR_INSTALL_PATH,
  LINEAR_REDIRECT_PATH,
  LINEAR_SCOPES,
  type LinearOAuthRoutes,
} from './install/oauth-routes.js';
export { linearPlatform } from './platform.js';
