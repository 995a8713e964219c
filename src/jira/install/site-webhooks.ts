/**
 * The webhooks of the OAuth app on each installed site, registered through the REST API
 * ("Register dynamic webhooks", `POST /rest/api/3/webhook`, open to OAuth 2.0 and Connect
 * apps only): the issue and comment events the relay reads, for the allowed projects only
 * (a JQL filter; Atlassian allows only `=`, `!=`, `IN` and `NOT IN` in it). Jira lets such a
 * webhook lapse after 30 days, so each is extended (`PUT /rest/api/3/webhook/refresh`) once
 * less than a week is left; a site whose webhooks are gone gets them again.
 */
import type { Logger } from '../../core/ports/index.js';
import type { JiraClient } from '../api/jira-client.js';
import { JiraApiError } from '../api/jira-client.js';
import type { JiraInstallations } from './installations.js';

export const WEBHOOK_EVENTS = ['jira:issue_created', 'jira:issue_updated', 'comment_created'];
/** Extend once less than this is left of the 30 days. */
export const EXTEND_WITHIN_MS = 7 * 24 * 3600_000;
const LIFE_MS = 30 * 24 * 3600_000;

export function projectsJql(projects: readonly string[]): string {
  return `project IN (${projects.map((p) => `"${p}"`).join(', ')})`;
}

/** Register the app's webhooks on a site; their ids and expiry. */
export async function registerSiteWebhooks(
  client: JiraClient,
  url: string,
  projects: readonly string[],
  now: number,
): Promise<{ webhookIds: number[]; webhooksExpireAt: number }> {
  const made = await client.registerWebhooks(url, [
    { events: WEBHOOK_EVENTS, jqlFilter: projectsJql(projects) },
  ]);
  if (made.ids.length === 0)
    throw new JiraApiError(
      200,
      `Jira registered no webhook: ${made.errors.join('; ') || 'no answer'}`,
    );
  return { webhookIds: made.ids, webhooksExpireAt: now + LIFE_MS };
}

/** Keep one site's webhooks alive: extend them when due, register them when missing. */
export async function keepSiteWebhooks(deps: {
  site: string;
  client: JiraClient;
  installations: JiraInstallations;
  webhookUrl: string;
  projects: readonly string[];
  now: number;
  logger: Logger;
}): Promise<void> {
  const install = await deps.installations.get(deps.site);
  if (!install) return;
  const ids = install.webhookIds ?? [];
  if (ids.length > 0 && (install.webhooksExpireAt ?? 0) - deps.now > EXTEND_WITHIN_MS) return;
  if (ids.length > 0) {
    const until = await deps.client.refreshWebhooks(ids);
    await deps.installations.update(deps.site, { webhooksExpireAt: until ?? deps.now + LIFE_MS });
    deps.logger.info({ site: deps.site, ids }, "extended the app's Jira webhooks");
    return;
  }
  const made = await registerSiteWebhooks(deps.client, deps.webhookUrl, deps.projects, deps.now);
  await deps.installations.update(deps.site, made);
  deps.logger.info({ site: deps.site, ids: made.webhookIds }, "registered the app's Jira webhooks");
}
