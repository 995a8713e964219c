/**
 * OAuth 2.0 (3LO) install on Jira Cloud sites: `GET /jira/install` sends the browser to
 * Atlassian's consent page with a state tied to that browser (platform/oauth-state.ts);
 * `GET /jira/oauth_redirect` checks the state (signed, ten minutes, used once, the browser's
 * own), exchanges the code, reads which sites the token reaches (accessible-resources), and
 * keeps, sealed, the token and each site that is on JIRA_ALLOWED_SITES: its cloud id, the
 * account that installed it (the relay acts as that account there) and the app's webhooks,
 * registered on it now. A consent that reaches no allowed site is refused and its token is
 * dropped, never stored (Atlassian documents no revocation of 3LO tokens). The redirect URI
 * and the webhooks' URL come from the configuration (CONSOLE_PUBLIC_URL), never from the
 * Host header, which serves only an install reached on loopback.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, Logger } from '../../core/ports/index.js';
import { createOAuthState, installPage as page, loopbackRoot } from '../../platform/oauth-state.js';
import { createJiraClient, JiraApiError } from '../api/jira-client.js';
import {
  accessibleSites,
  authorizeUrl,
  exchangeCode,
  gatewayBaseUrl,
  type JiraOAuthClient,
} from '../api/oauth.js';
import type { JiraInstallations } from './installations.js';
import { registerSiteWebhooks } from './site-webhooks.js';

export const JIRA_INSTALL_PATH = '/jira/install';
export const JIRA_REDIRECT_PATH = '/jira/oauth_redirect';
export const JIRA_WEBHOOK_PATH = '/jira/webhooks';

export interface JiraOAuthDeps {
  client: JiraOAuthClient;
  allowedSites: readonly string[];
  allowedProjects: readonly string[];
  installations: JiraInstallations;
  /** The relay's public root (CONSOLE_PUBLIC_URL); unset: loopback only. */
  publicUrl?: string;
  /** Record a state as used (every replica sees it). */
  useStateOnce?: (state: string, expiresAt: number) => Promise<boolean>;
  clock: Clock;
  logger: Logger;
}

/** This relay's root as the browser reached it, only on loopback (development). */
const rootOf = (req: IncomingMessage, publicUrl: string | undefined) =>
  publicUrl ?? loopbackRoot(req);

export function createJiraOAuthRoutes(deps: JiraOAuthDeps) {
  const log = deps.logger.child({ component: 'jira-oauth' });
  const states = createOAuthState(
    `jira-oauth-state:${deps.client.clientSecret}`,
    'jira_oauth_state',
    '/jira',
  );
  const noAddress = (res: ServerResponse) =>
    page(
      res,
      500,
      'agent-relay does not know its public address: ask whoever runs it to set CONSOLE_PUBLIC_URL.',
    );
  const again = `Start again from ${JIRA_INSTALL_PATH}.`;

  return {
    async install(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const root = rootOf(req, deps.publicUrl);
      if (root === undefined) return noAddress(res);
      const { state, cookie } = states.issue(deps.clock.now(), root.startsWith('https:'));
      res.writeHead(302, {
        location: authorizeUrl(deps.client, `${root}${JIRA_REDIRECT_PATH}`, state),
        'cache-control': 'no-store',
        'set-cookie': cookie,
      });
      res.end();
    },

    async redirect(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
      const state = query.get('state') ?? '';
      const code = query.get('code');
      const expiresAt = states.check(req, state, deps.clock.now());
      if (
        expiresAt === undefined ||
        (deps.useStateOnce && !(await deps.useStateOnce(state, expiresAt)))
      )
        return page(res, 400, `This install link has expired or was used already. ${again}`);
      if (!code) return page(res, 400, `Jira did not grant the install (no code). ${again}`);
      const root = rootOf(req, deps.publicUrl);
      if (root === undefined) return noAddress(res);
      try {
        const now = deps.clock.now();
        const grant = await exchangeCode(deps.client, {
          code,
          redirectUri: `${root}${JIRA_REDIRECT_PATH}`,
          now,
        });
        if ('error' in grant) {
          log.warn({ error: grant.error }, 'Atlassian refused the code exchange');
          return page(res, 400, `Atlassian refused the install. ${again}`);
        }
        const reached = await accessibleSites(deps.client, grant.accessToken);
        const allowed = reached.filter((s) => deps.allowedSites.includes(s.host));
        if (allowed.length === 0) {
          // Nothing of the grant is kept: the token goes out of scope here.
          log.warn(
            { sites: reached.map((s) => s.host) },
            'Jira install from a site not allowed; its token was dropped',
          );
          return page(
            res,
            403,
            'This Jira site may not install agent-relay here; nothing was kept. Ask whoever runs it to add the site to JIRA_ALLOWED_SITES.',
          );
        }
        const installed: string[] = [];
        let accountId: string | undefined;
        for (const site of allowed) {
          const client = createJiraClient({
            baseUrl: gatewayBaseUrl(deps.client.apiUrl, site.cloudId),
            bearer: { token: async () => grant.accessToken, renew: async () => undefined },
            ...(deps.client.fetch ? { fetch: deps.client.fetch } : {}),
          });
          accountId ??= (await client.myself()).accountId;
          // An install again replaces the app's webhooks there (their URL or projects may
          // have changed), rather than adding a second set.
          const before = (await deps.installations.get(site.host))?.webhookIds ?? [];
          if (before.length > 0)
            await client
              .deleteWebhooks(before)
              .catch((err: unknown) =>
                log.warn(
                  { site: site.host, err: String(err) },
                  'could not delete the old webhooks',
                ),
              );
          const hooks = await registerSiteWebhooks(
            client,
            `${root}${JIRA_WEBHOOK_PATH}`,
            deps.allowedProjects,
            now,
          );
          if (installed.length === 0) await deps.installations.saveGrant(accountId, grant, now);
          await deps.installations.save(
            site.host,
            { cloudId: site.cloudId, url: site.url, accountId, ...hooks },
            now,
          );
          installed.push(site.host);
        }
        log.info({ sites: installed, accountId }, 'installed on Jira sites');
        return page(
          res,
          200,
          `agent-relay is installed on ${installed.join(', ')}. Put the label on an issue, assign an issue to this account, or mention it in a comment, to start a run.`,
        );
      } catch (err) {
        log.error({ err: (err as Error).message }, 'Jira install failed');
        if (err instanceof JiraApiError && (err.status === 401 || err.status === 403))
          return page(
            res,
            403,
            `Jira refused the app there (${err.status}): check its scopes in the developer console and the account's project permissions. ${again}`,
          );
        return page(res, 502, 'Jira did not answer; the install did not finish. Please try again.');
      }
    },
  };
}
