/**
 * Jira as a platform (one site): the notifier (ADF comments through REST v3, the status
 * comment edited in place), the webhook route, who may act in a project (asked of Jira by the
 * runs, after the webhook was answered), and at start the relay's own account, asked of
 * Jira when JIRA_ACCOUNT_ID does not name it (assignments to it start runs; its own comments
 * never do). A refused credential ends the start-up with one line.
 */
import type { PlatformDefinition, PlatformDeps, PlatformModule } from '../platform/contract.js';
import { webhookRoute } from '../platform/webhook-endpoint.js';
import { PlatformStartError } from '../platform/contract.js';
import { createJiraClient, JiraApiError } from './api/jira-client.js';
import { createProjectAccess } from './api/project-access.js';
import { createJiraIngress, JIRA_BODY_LIMIT_BYTES } from './ingress/jira-ingress.js';
import { createJiraNotifier } from './notify/notifier.js';

/** How often the relay's account is asked again when Jira did not answer at start. */
const ACCOUNT_RETRY_MS = 60_000;

function createJira(deps: PlatformDeps): PlatformModule | undefined {
  const jira = deps.config.jira;
  if (!jira) return undefined;
  const { logger, clock } = deps;
  const client = createJiraClient({
    baseUrl: jira.baseUrl,
    email: jira.email,
    apiToken: jira.apiToken,
  });
  const notifier = createJiraNotifier({
    client,
    baseUrl: jira.baseUrl,
    render: { botHandle: jira.botHandle },
    logger,
    clock,
    ...(jira.startTransition === undefined ? {} : { startTransition: jira.startTransition }),
  });
  let accountId = jira.accountId;
  let retry: NodeJS.Timeout | undefined;
  /** Ask Jira for the relay's account; whether it is known now. */
  async function learnAccount(): Promise<boolean> {
    accountId = (await client.myself()).accountId;
    logger.info({ accountId }, "Jira: the relay's account");
    return true;
  }

  return {
    name: 'jira',
    notifier,
    access: createProjectAccess({ client, logger, clock }),
    routes({ sink }) {
      const webhooks = createJiraIngress({
        secret: jira.webhookSecret,
        site: jira.site,
        baseUrl: jira.baseUrl,
        allowedProjects: jira.allowedProjects,
        botHandle: jira.botHandle,
        triggerLabel: jira.triggerLabel,
        accountId: () => accountId,
        sink,
        logger,
        clock,
      });
      return [webhookRoute('jira', JIRA_BODY_LIMIT_BYTES, webhooks)];
    },
    async start() {
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
    async stop() {},
    async close() {
      clearInterval(retry);
    },
  };
}

export const jiraPlatform: PlatformDefinition = {
  name: 'jira',
  capabilities: {
    buttons: false,
    ephemeral: false,
    editsInPlace: true,
    agentSessions: false,
    checkRuns: false,
    install: false,
  },
  create: createJira,
};
