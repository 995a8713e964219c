/**
 * OAuth install (`GET /slack/install`, `GET /slack/oauth_redirect`) with Slack's own
 * InstallProvider: the install page sets a state cookie and links to Slack's consent screen;
 * the redirect checks the state against that cookie, trades the code for the workspace's
 * tokens (oauth.v2.access) and keeps them in the installation store (sealed).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InstallProvider } from '@slack/oauth';
import type { InstallationStore } from '@slack/bolt';
import type { Logger } from '../../core/ports/index.js';
import { toBoltLogger } from '../api/slack-logger.js';
import { normaliseApiUrl } from '../api/web-client.js';
import { TOKEN_ROTATION_ADVICE } from './installations.js';

/** The bot scopes the app asks for (the manifest lists the same, with why). */
export const BOT_SCOPES = [
  'app_mentions:read',
  'assistant:write',
  'channels:history',
  'channels:read',
  'chat:write',
  'commands',
  'groups:history',
  'groups:read',
  'im:history',
  'reactions:write',
] as const;

export const INSTALL_PATH = '/slack/install';
export const REDIRECT_PATH = '/slack/oauth_redirect';

export interface OAuthRoutesDeps {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  installationStore: InstallationStore;
  apiUrl?: string;
  /** Slack's consent page (tests point it elsewhere); default Slack's. */
  authorizationUrl?: string;
  /** The public redirect URL, when it must be named (several are registered). */
  redirectUri?: string;
  logger: Logger;
}

export interface OAuthRoutes {
  install(req: IncomingMessage, res: ServerResponse): Promise<void>;
  redirect(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

const page = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body><h1>${title}</h1><p>${text}</p></body></html>`;

function send(res: ServerResponse, status: number, html: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}

export function createOAuthRoutes(deps: OAuthRoutesDeps): OAuthRoutes {
  const log = deps.logger.child({ component: 'slack-oauth' });
  const provider = new InstallProvider({
    clientId: deps.clientId,
    clientSecret: deps.clientSecret,
    stateSecret: deps.stateSecret,
    installationStore: deps.installationStore,
    logger: toBoltLogger(deps.logger, 'slack-oauth'),
    clientOptions: { slackApiUrl: normaliseApiUrl(deps.apiUrl) },
    ...(deps.authorizationUrl === undefined ? {} : { authorizationUrl: deps.authorizationUrl }),
    installUrlOptions: {
      scopes: [...BOT_SCOPES],
      ...(deps.redirectUri === undefined ? {} : { redirectUri: deps.redirectUri }),
    },
  });
  return {
    install: (req, res) => provider.handleInstallPath(req, res),
    redirect: (req, res) =>
      provider.handleCallback(req, res, {
        success: (installation, _options, _req, response) => {
          const where = installation.isEnterpriseInstall
            ? 'your organisation'
            : (installation.team?.name ?? 'your workspace');
          send(
            response,
            200,
            page(
              'agent-relay is installed',
              `agent-relay is installed in ${where}. You can close this page.`,
            ),
          );
        },
        failure: (error, _options, _req, response) => {
          log.warn({ code: error.code }, 'Slack install failed');
          const cancelled = error.code === 'slack_oauth_installer_authorization_error';
          if ((error.code as string) === 'slack_token_rotation') {
            send(response, 400, page('Install refused', TOKEN_ROTATION_ADVICE));
            return;
          }
          send(
            response,
            cancelled ? 200 : 400,
            page(
              cancelled ? 'Install cancelled' : 'Install failed',
              cancelled
                ? 'Nothing was installed.'
                : 'The install did not finish (the link may have expired). Please start again from the install page.',
            ),
          );
        },
      }),
  };
}
