/** The Jira side: issue and comment webhooks in, ADF comments out (docs/setup-jira.md). */
export {
  createJiraIngress,
  JIRA_BODY_LIMIT_BYTES,
  type JiraIngressDeps,
} from './ingress/jira-ingress.js';
export { verifyJiraSignature } from './ingress/verify-signature.js';
export { verifyJiraJwt } from './ingress/verify-jwt.js';
export {
  createJiraNotifier,
  NOTIFICATION_PROPERTY,
  type JiraNotifierDeps,
} from './notify/notifier.js';
export { pickTransition } from './notify/start-transition.js';
export { createJiraClient, JiraApiError, type JiraClient } from './api/jira-client.js';
export { renderJiraMessage, type JiraRenderOptions } from './render/render-message.js';
export { markdownToAdf } from './render/markdown-to-adf.js';
export { plainText, type AdfDoc, type AdfBlock } from './api/adf.js';
export { jiraPlatform } from './platform.js';
export { createJiraInstallations, type JiraInstallations } from './install/installations.js';
export { exchangeCode, type JiraOAuthClient } from './api/oauth.js';
export { keepSiteWebhooks } from './install/site-webhooks.js';
export { installedSites, oneSite, type JiraSite, type JiraSites } from './sites.js';
