/**
 * OAuth install (`GET /slack/install`, `GET /slack/oauth_redirect`) with Slack's own
 * InstallProvider: the install page sets a state cookie and links to Slack's consent screen;
 * the redirect checks the state against that cookie and that it was not used before (each
 * state is good once), trades the code for the workspace's tokens (oauth.v2.access) and
 * keeps them in the installation store (sealed).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import oauth from '@slack/oauth';
import type { StateStore } from '@slack/oauth';
import type { InstallationStore } from '@slack/bolt';
import { escapeHtmlText } from '../../core/ingress/security-headers.js';
import type { Logger } from '../../core/ports/index.js';
import { toBoltLogger } from '../api/slack-logger.js';
import { createWebClient, normaliseApiUrl } from '../api/web-client.js';
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
  'users:read',
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
  /**
   * Record a state as used until `expiresAt`: true the first time, false after. Unset: a
   * state is good until it expires (no store to remember it in).
   */
  useStateOnce?: (key: string, expiresAt: number) => Promise<boolean>;
  logger: Logger;
  /** Whether this workspace (or organisation) may install; default any. */
  mayInstall?: (q: { teamId?: string; enterpriseId?: string }) => boolean;
}

/** How long an install link is good (Slack's library default, kept). */
const STATE_SECONDS = 600;

// A CommonJS package whose re-exports (`export *`) Node's ESM loader does not see by name.
const { ClearStateStore, InstallProvider, InvalidStateError } = oauth;

/** Signed states (Slack's own), each accepted once when `useOnce` is given. */
function singleUseStates(secret: string, useOnce: OAuthRoutesDeps['useStateOnce']): StateStore {
  const signed = new ClearStateStore(secret, STATE_SECONDS);
  return {
    generateStateParam: (options, now) => signed.generateStateParam(options, now),
    async verifyStateParam(now, state) {
      const options = await signed.verifyStateParam(now, state);
      const key = `slack-install:${createHash('sha256').update(state).digest('base64url')}`;
      if (useOnce && !(await useOnce(key, now.getTime() + STATE_SECONDS * 1000)))
        throw new InvalidStateError('The state was already used');
      return options;
    },
  };
}

export interface OAuthRoutes {
  install(req: IncomingMessage, res: ServerResponse): Promise<void>;
  redirect(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** A plain page; both parts are escaped (a workspace's name is chosen by whoever made it). */
const page = (title: string, text: string) => {
  const [t, p] = [escapeHtmlText(title), escapeHtmlText(text)];
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${t}</title></head>` +
    `<body><h1>${t}</h1><p>${p}</p></body></html>`
  );
};

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
    stateStore: singleUseStates(deps.stateSecret, deps.useStateOnce),
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
        // A workspace the operator did not list, or an app with token rotation on: nothing is
        // stored and the tokens just issued are revoked (`auth.revoke`), so the app is not
        // left installed there with a working token.
        afterInstallation: async (installation, _options, _req, response) => {
          const q = {
            ...(installation.team?.id ? { teamId: installation.team.id } : {}),
            ...(installation.enterprise?.id ? { enterpriseId: installation.enterprise.id } : {}),
          };
          const revokeIssued = async () => {
            const tokens = [installation.bot?.token, installation.user.token].filter(
              (t): t is string => t !== undefined,
            );
            for (const token of tokens)
              await createWebClient({ token, apiUrl: deps.apiUrl, logger: deps.logger })
                .auth.revoke()
                .catch((err: unknown) =>
                  log.warn({ err }, 'Slack token of a refused install not revoked'),
                );
          };
          const rotating = [installation.bot, installation.user].some(
            (t) => t?.refreshToken !== undefined || t?.expiresAt !== undefined,
          );
          if (rotating) {
            log.warn(q, 'Slack install refused: the app has token rotation turned on');
            await revokeIssued();
            send(response, 400, page('Install refused', TOKEN_ROTATION_ADVICE));
            return false;
          }
          if (deps.mayInstall === undefined || deps.mayInstall(q)) return true;
          log.warn(q, 'Slack install refused: the workspace is not on SLACK_ALLOWED_TEAMS');
          await revokeIssued();
          send(
            response,
            403,
            page(
              'Install refused',
              'This Slack workspace is not one this agent-relay serves, so nothing was installed. ' +
                'Ask whoever runs agent-relay to add it to SLACK_ALLOWED_TEAMS.',
            ),
          );
          return false;
        },
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
