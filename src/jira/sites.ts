/**
 * The Jira sites the relay serves, by host name (the `{site}` of `jira:{site}:{issue key}`):
 * one site with the relay's API token (JIRA_BASE_URL), or every allowed site the OAuth app
 * was installed on, each with its own token through Atlassian's gateway. A site the relay
 * does not serve is undefined: its webhooks are ignored and nothing is written there.
 */
import type { JiraClient } from './api/jira-client.js';
import { createJiraClient } from './api/jira-client.js';
import { gatewayBaseUrl } from './api/oauth.js';
import type { JiraInstallations } from './install/installations.js';

export interface JiraSite {
  /** Its host name, lower case. */
  site: string;
  /** Its root, for links people open (`https://acme.atlassian.net`). */
  baseUrl: string;
  client: JiraClient;
  /** The relay's account there, once known. */
  accountId?: string;
}

export interface JiraSites {
  resolve(site: string): Promise<JiraSite | undefined>;
}

/** The one site of JIRA_BASE_URL; its account is read when asked (it may be learnt late). */
export function oneSite(
  site: string,
  baseUrl: string,
  client: JiraClient,
  accountId: () => string | undefined,
): JiraSites {
  return {
    async resolve(host) {
      if (host.toLowerCase() !== site) return undefined;
      const id = accountId();
      return { site, baseUrl, client, ...(id === undefined ? {} : { accountId: id }) };
    },
  };
}

/** The allowed sites the OAuth app is installed on. */
export function installedSites(deps: {
  allowedSites: readonly string[];
  installations: JiraInstallations;
  apiUrl: string;
  fetch?: typeof fetch;
}): JiraSites {
  const clients = new Map<string, { cloudId: string; client: JiraClient }>();
  return {
    async resolve(host) {
      const site = host.toLowerCase();
      if (!deps.allowedSites.includes(site)) return undefined;
      const install = await deps.installations.get(site);
      if (!install) return undefined;
      let known = clients.get(site);
      if (known?.cloudId !== install.cloudId) {
        known = {
          cloudId: install.cloudId,
          client: createJiraClient({
            baseUrl: gatewayBaseUrl(deps.apiUrl, install.cloudId),
            bearer: {
              token: () => deps.installations.tokenFor(site),
              renew: (rejected) => deps.installations.renew(site, rejected),
            },
            ...(deps.fetch ? { fetch: deps.fetch } : {}),
          }),
        };
        clients.set(site, known);
      }
      return { site, baseUrl: install.url, client: known.client, accountId: install.accountId };
    },
  };
}
