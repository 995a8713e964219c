/**
 * Atlassian's OAuth 2.0 (3LO) endpoints, as its developer documentation describes them
 * ("OAuth 2.0 (3LO) apps", "Implementing the refresh token flow", "Making calls to the API"):
 *
 * - the consent page `{auth}/authorize?audience=api.atlassian.com&client_id&scope&redirect_uri
 *   &state&response_type=code&prompt=consent`;
 * - `POST {auth}/oauth/token` (JSON) with `grant_type=authorization_code` (`code`,
 *   `redirect_uri`) or `grant_type=refresh_token`, answering `access_token`, `expires_in`
 *   (seconds), `scope` and, with the `offline_access` scope, a `refresh_token`. Refresh tokens
 *   rotate: each use answers a new one and disables the one used;
 * - `GET {api}/oauth/token/accessible-resources` (the bearer's sites: `id` is the cloud id,
 *   `url` the site), and every REST call through `{api}/ex/jira/{cloudId}/rest/api/3/…`.
 *
 * Atlassian documents no endpoint that revokes a 3LO token: a token the relay will not keep
 * is dropped, never stored (the person who granted it can remove the app from their
 * account's "Connected apps").
 */
import { grantOfAnswer } from '../../platform/token-refresh.js';

/** The scopes the relay asks for: Jira work, the person's own account, webhooks, refresh. */
export const JIRA_SCOPES = [
  'read:jira-work',
  'write:jira-work',
  'read:jira-user',
  'manage:jira-webhook',
  'offline_access',
] as const;

export interface JiraGrant {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms. */
  expiresAt?: number;
}

export interface JiraOAuthClient {
  authUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
}

export interface AccessibleSite {
  /** The cloud id: the gateway's `/ex/jira/{cloudId}`. */
  cloudId: string;
  /** The site's root (`https://acme.atlassian.net`). */
  url: string;
  /** Its host name, lower case: the `{site}` of thread keys. */
  host: string;
  scopes: string[];
}

export function authorizeUrl(
  client: Pick<JiraOAuthClient, 'authUrl' | 'clientId'>,
  redirectUri: string,
  state: string,
): string {
  const url = new URL(`${client.authUrl}/authorize`);
  url.searchParams.set('audience', 'api.atlassian.com');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('scope', JIRA_SCOPES.join(' '));
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', state);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('prompt', 'consent');
  return url.toString();
}

async function tokenRequest(
  client: JiraOAuthClient,
  body: Record<string, string>,
  now: number,
): Promise<JiraGrant | { error: string }> {
  const res = await (client.fetch ?? fetch)(`${client.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      ...body,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  let answer: Record<string, unknown> = {};
  try {
    const parsed: unknown = await res.json();
    if (parsed && typeof parsed === 'object') answer = parsed as Record<string, unknown>;
  } catch {
    // not JSON: reported below
  }
  // An empty access token is no grant either.
  return grantOfAnswer(res.ok && answer.access_token !== '', res.status, answer, now);
}

export function exchangeCode(
  client: JiraOAuthClient,
  input: { code: string; redirectUri: string; now: number },
): Promise<JiraGrant | { error: string }> {
  return tokenRequest(
    client,
    { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri },
    input.now,
  );
}

/** A new pair for a refresh token (which Atlassian then disables). */
export function refreshGrant(
  client: JiraOAuthClient,
  refreshToken: string,
  now: number,
): Promise<JiraGrant | { error: string }> {
  return tokenRequest(client, { grant_type: 'refresh_token', refresh_token: refreshToken }, now);
}

/** The Jira sites a token may act on. */
export async function accessibleSites(
  client: Pick<JiraOAuthClient, 'apiUrl' | 'fetch'>,
  accessToken: string,
): Promise<AccessibleSite[]> {
  const res = await (client.fetch ?? fetch)(`${client.apiUrl}/oauth/token/accessible-resources`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`accessible-resources answered ${res.status}`);
  const list: unknown = await res.json();
  if (!Array.isArray(list)) throw new Error('accessible-resources is not a list');
  const sites: AccessibleSite[] = [];
  for (const r of list as { id?: unknown; url?: unknown; scopes?: unknown }[]) {
    if (typeof r?.id !== 'string' || typeof r.url !== 'string') continue;
    let host: string;
    try {
      host = new URL(r.url).hostname.toLowerCase();
    } catch {
      continue;
    }
    const scopes = Array.isArray(r.scopes) ? r.scopes.filter((s) => typeof s === 'string') : [];
    // Confluence sites share the list; only those with Jira scopes are Jira sites.
    if (!scopes.some((s: string) => s.endsWith(':jira-work'))) continue;
    sites.push({ cloudId: r.id, url: r.url.replace(/\/+$/, ''), host, scopes });
  }
  return sites;
}

/** The REST root of a site through the gateway. */
export function gatewayBaseUrl(apiUrl: string, cloudId: string): string {
  return `${apiUrl}/ex/jira/${encodeURIComponent(cloudId)}`;
}
