/**
 * Jira as a platform, on one site with the relay's API token, or on the allowed sites an
 * OAuth 2.0 (3LO) app was installed on (`/jira/install`; the app's webhooks registered and
 * kept alive on each): the notifier (ADF comments through REST v3, the status
 * comment edited in place), the webhook route, who may act in a project (asked of Jira by the
 * runs, after the webhook was answered), and at start the relay's own account, asked of
 * Jira when JIRA_ACCOUNT_ID does not name it (assignments to it start runs; its own comments
 * never do). A refused credential ends the start-up with one line.
 */
import type { PlatformDeps, PlatformModule } from '../platform/contract.js';
import { webhookRoute } from '../platform/webhook-endpoint.js';
import { PlatformStartError } from '../platform/contract.js';
import type { JiraCommonConfig, JiraOAuthConfig, JiraTokenConfig } from '../config/types.js';
import type { Route } from '../platform/route.js';
import { createTokenCipher } from '../platform/token-cipher.js';
import { createJiraClient, JiraApiError } from './api/jira-client.js';
import { createProjectAccess } from './api/project-access.js';
import {
  createJiraIngress,
  JIRA_BODY_LIMIT_BYTES,
  type JiraIngressDeps,
} from './ingress/jira-ingress.js';
import { createJiraInstallations } from './install/installations.js';
import {
  createJiraOAuthRoutes,
  JIRA_INSTALL_PATH,
  JIRA_REDIRECT_PATH,
  JIRA_WEBHOOK_PATH,
} from './install/oauth-routes.js';
import { keepSiteWebhooks } from './install/site-webhooks.js';
import { createJiraNotifier } from './notify/notifier.js';
import { installedSites, oneSite, type JiraSites } from './sites.js';

/** How often the relay's account is asked again when Jira did not answer at start. */
const ACCOUNT_RETRY_MS = 60_000;
/** How often the OAuth app's webhooks on each site are looked after (extended when due). */
const WEBHOOK_CARE_MS = 6 * 3600_000;

export function createJira(deps: PlatformDeps): PlatformModule | undefined {
  const jira = deps.config.jira;
  if (!jira) return undefined;
  return jira.oauth ? createOAuthJira(deps, jira, jira.oauth) : createTokenJira(deps, jira);
}

/** What both ways share: the notifier, the access check and the webhook route. */
function jiraModule(
  deps: PlatformDeps,
  jira: JiraCommonConfig,
  sites: JiraSites,
  signature: JiraIngressDeps['signature'],
  more: { routes?: Route[] } & Pick<PlatformModule, 'start' | 'close'>,
): PlatformModule {
  const { logger, clock } = deps;
  const notifier = createJiraNotifier({
    sites,
    render: { botHandle: jira.botHandle },
    logger,
    clock,
    ...(jira.startTransition === undefined ? {} : { startTransition: jira.startTransition }),
  });
  return {
    name: 'jira',
    notifier,
    access: createProjectAccess({ sites, logger, clock }),
    routes({ sink }) {
      const webhooks = createJiraIngress({
        signature,
        sites,
        allowedProjects: jira.allowedProjects,
        botHandle: jira.botHandle,
        triggerLabel: jira.triggerLabel,
        sink,
        logger,
        clock,
      });
      return [...(more.routes ?? []), webhookRoute('jira', JIRA_BODY_LIMIT_BYTES, webhooks)];
    },
    start: more.start,
    async stop() {},
    close: more.close,
  };
}

function createTokenJira(deps: PlatformDeps, jira: JiraTokenConfig): PlatformModule {
  const { logger } = deps;
  const client = createJiraClient({
    baseUrl: jira.restUrl ?? jira.baseUrl,
    email: jira.email,
    apiToken: jira.apiToken,
  });
  let accountId = jira.accountId;
  let retry: NodeJS.Timeout | undefined;
  /** Ask Jira for the relay's account; whether it is known now. */
  async function learnAccount(): Promise<boolean> {
    accountId = (await client.myself()).accountId;
    logger.info({ accountId }, "Jira: the relay's account");
    return true;
  }
  const sites = oneSite(jira.site, jira.baseUrl, client, () => accountId);
  return jiraModule(
    deps,
    jira,
    sites,
    { kind: 'hmac', secret: jira.webhookSecret },
    {
      async start() {
        // Comments in ADF through REST v3 are Cloud's: a Data Center site is refused now.
        const kind = await client.deploymentType().catch(() => undefined);
        if (kind !== undefined && kind.toLowerCase() !== 'cloud')
          throw new PlatformStartError(
            'jira_not_supported',
            `JIRA_BASE_URL ${jira.baseUrl} is a Jira ${kind} site; agent-relay speaks to Jira Cloud only ` +
              '(REST v3 and ADF comments): see docs/setup-jira.md#data-center-and-server',
          );
        if (accountId !== undefined) return;
        try {
          await learnAccount();
        } catch (err) {
          if (err instanceof JiraApiError && (err.status === 401 || err.status === 403))
            throw new PlatformStartError(
              'jira_auth_failed',
              `Jira refused JIRA_EMAIL and JIRA_API_TOKEN (GET /rest/api/3/myself answered ${err.status})`,
            );
          // Comments wait until the account is known (to-trigger.ts): asked again each minute.
          logger.warn(
            { err: err instanceof Error ? err.message : String(err) },
            "Jira: could not ask for the relay's account; comments are not read until it answers (or set JIRA_ACCOUNT_ID)",
          );
          retry = setInterval(() => {
            learnAccount().then(
              () => clearInterval(retry),
              () => undefined,
            );
          }, ACCOUNT_RETRY_MS);
          retry.unref();
        }
      },
      async close() {
        clearInterval(retry);
      },
    },
  );
}

function createOAuthJira(
  deps: PlatformDeps,
  jira: JiraCommonConfig,
  oauth: JiraOAuthConfig,
): PlatformModule {
  const { logger, clock } = deps;
  const client = {
    authUrl: oauth.authUrl,
    apiUrl: oauth.apiUrl,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
  };
  const installations = createJiraInstallations({
    repo: deps.store.installations,
    cipher: createTokenCipher(oauth.encryptionKey),
    client,
    logger,
    clock,
    leases: deps.store.leases,
  });
  const sites = installedSites({
    allowedSites: oauth.allowedSites,
    installations,
    apiUrl: oauth.apiUrl,
  });
  const routes = createJiraOAuthRoutes({
    client,
    allowedSites: oauth.allowedSites,
    allowedProjects: jira.allowedProjects,
    installations,
    ...(oauth.publicUrl === undefined ? {} : { publicUrl: oauth.publicUrl }),
    useStateOnce: (state: string, expiresAt: number) =>
      deps.store.usedOnce.use(`jira:${state}`, expiresAt, clock.now()),
    clock,
    logger,
  });
  let care: NodeJS.Timeout | undefined;
  /** Extend (or register again) the app's webhooks on every installed site. */
  async function careForWebhooks(): Promise<void> {
    if (oauth.publicUrl === undefined) return;
    for (const name of oauth.allowedSites) {
      const site = await sites.resolve(name);
      if (!site) continue;
      await keepSiteWebhooks({
        site: name,
        client: site.client,
        installations,
        webhookUrl: `${oauth.publicUrl}${JIRA_WEBHOOK_PATH}`,
        projects: jira.allowedProjects,
        now: clock.now(),
        logger,
      }).catch((err: unknown) =>
        logger.warn(
          { site: name, err: String(err) },
          "could not look after the app's Jira webhooks",
        ),
      );
    }
  }
  return jiraModule(
    deps,
    jira,
    sites,
    { kind: 'jwt', clientSecret: oauth.clientSecret },
    {
      routes: [
        { path: JIRA_INSTALL_PATH, methods: ['GET'], handler: (q, s) => routes.install(q, s) },
        { path: JIRA_REDIRECT_PATH, methods: ['GET'], handler: (q, s) => routes.redirect(q, s) },
      ],
      async start() {
        const careNow = () =>
          careForWebhooks().catch((err: unknown) =>
            logger.warn({ err: String(err) }, "could not look after the app's Jira webhooks"),
          );
        void careNow();
        care = setInterval(() => void careNow(), WEBHOOK_CARE_MS);
        care.unref();
      },
      async close() {
        clearInterval(care);
      },
    },
  );
}
