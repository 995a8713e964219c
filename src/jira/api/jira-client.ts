/**
 * The few Jira REST v3 calls the relay makes, with the relay's account (basic auth: the
 * account's email and an API token) or, for an OAuth app, a site's bearer token through
 * Atlassian's gateway (refreshed once when Jira refuses it), each under a timeout. A refused call is a
 * `JiraApiError` carrying the status and Jira's `Retry-After`, which the notifier maps to a
 * `DeliveryError` and the access check to a verdict. Described by Atlassian's REST v3
 * reference ("The Jira Cloud platform REST API", developer.atlassian.com/cloud/jira/platform/rest/v3).
 */
import { RelayError } from '../../core/relay-error.js';
import type { AdfDoc } from './adf.js';

/** A site's OAuth token: the one to use, and a newer one when Jira refused it. */
export interface BearerSource {
  token(): Promise<string | undefined>;
  renew(rejected: string): Promise<string | undefined>;
}

export type JiraClientDeps = {
  /** The site's root, or its gateway root (`https://api.atlassian.com/ex/jira/{cloudId}`). */
  baseUrl: string;
  /** Per-request timeout. Default 15 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
} & ({ email: string; apiToken: string } | { bearer: BearerSource });

/** A Jira answer other than 2xx, or no answer at all (`status` 0). */
export class JiraApiError extends RelayError<'jira_api'> {
  override readonly name = 'JiraApiError';
  constructor(
    readonly status: number,
    message: string,
    /** Jira's `Retry-After`, in seconds or as a date, as sent. */
    readonly retryAfter?: string,
    options?: { cause?: unknown },
  ) {
    super('jira_api', message, options);
  }
}

export interface JiraComment {
  id: string;
  self?: string;
  body?: unknown;
  created?: string;
  author?: { accountId?: string };
  properties?: { key?: string; value?: unknown }[];
}

export interface JiraTransition {
  id: string;
  name: string;
  to?: { name?: string; statusCategory?: { key?: string } };
}

export interface JiraClient {
  myself(): Promise<{ accountId: string; displayName?: string }>;
  /** `GET /rest/api/2/serverInfo` (Cloud, Server and Data Center alike): `Cloud` or not. */
  deploymentType(): Promise<string | undefined>;
  /** A new comment; `property` is stored with it (a comment property, shown nowhere). */
  addComment(
    issueKey: string,
    body: AdfDoc,
    property?: { key: string; value: unknown },
  ): Promise<JiraComment>;
  updateComment(issueKey: string, commentId: string, body: AdfDoc): Promise<void>;
  /** The newest comments of an issue (up to 100, with their properties), oldest first. */
  recentComments(issueKey: string): Promise<JiraComment[]>;
  transitions(issueKey: string): Promise<JiraTransition[]>;
  transition(issueKey: string, transitionId: string): Promise<void>;
  /**
   * Whether `accountId` holds every one of `permissions` in the project ("Find users with
   * permissions": the account is listed only when it holds them all). The relay's account
   * needs Administer Projects there to ask.
   */
  holdsPermissions(
    projectKey: string,
    accountId: string,
    permissions: readonly string[],
  ): Promise<boolean>;
  /**
   * Register the app's webhooks ("Register dynamic webhooks", OAuth and Connect apps only);
   * the ids Jira created, and the errors of those it did not.
   */
  registerWebhooks(
    url: string,
    webhooks: { events: readonly string[]; jqlFilter: string }[],
  ): Promise<{ ids: number[]; errors: string[] }>;
  /** "Extend webhook life": registered webhooks expire after 30 days. The new expiry (ms). */
  refreshWebhooks(ids: readonly number[]): Promise<number | undefined>;
  /** "Delete webhooks by ID" (the app's own; others' ids are ignored by Jira). */
  deleteWebhooks(ids: readonly number[]): Promise<void>;
}

const path = (s: string): string => encodeURIComponent(s);

export function createJiraClient(deps: JiraClientDeps): JiraClient {
  const doFetch = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? 15_000;
  const basic =
    'email' in deps
      ? `Basic ${Buffer.from(`${deps.email}:${deps.apiToken}`).toString('base64')}`
      : undefined;
  const bearer = 'bearer' in deps ? deps.bearer : undefined;

  async function call<T>(method: string, route: string, body?: unknown): Promise<T> {
    let token = bearer ? await bearer.token() : undefined;
    if (bearer && token === undefined)
      throw new JiraApiError(401, `${method} ${route.split('?')[0]}: the site has no token`);
    let res = await send(method, route, body, basic ?? `Bearer ${token}`);
    // A refused bearer may have expired early or been rotated by another replica: once more.
    if (res.status === 401 && bearer && token !== undefined) {
      token = await bearer.renew(token);
      if (token !== undefined) res = await send(method, route, body, `Bearer ${token}`);
    }
    return answer<T>(method, route, res);
  }

  async function send(
    method: string,
    route: string,
    body: unknown,
    authorization: string,
  ): Promise<Response> {
    try {
      return await doFetch(`${deps.baseUrl}${route}`, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new JiraApiError(0, `${method} ${route.split('?')[0]}: no answer`, undefined, {
        cause: err,
      });
    }
  }

  async function answer<T>(method: string, route: string, res: Response): Promise<T> {
    const text = await res.text().catch(() => '');
    if (!res.ok) {
      throw new JiraApiError(
        res.status,
        `${method} ${route.split('?')[0]}: Jira answered ${res.status}`,
        res.headers.get('retry-after') ?? undefined,
      );
    }
    if (text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new JiraApiError(res.status, `${method} ${route}: not JSON`, undefined, { cause: err });
    }
  }

  return {
    async myself() {
      const me = await call<{ accountId?: unknown; displayName?: unknown }>(
        'GET',
        '/rest/api/3/myself',
      );
      if (typeof me?.accountId !== 'string' || me.accountId === '')
        throw new JiraApiError(200, 'GET /rest/api/3/myself: no accountId');
      return {
        accountId: me.accountId,
        ...(typeof me.displayName === 'string' ? { displayName: me.displayName } : {}),
      };
    },
    async deploymentType() {
      const info = await call<{ deploymentType?: unknown }>('GET', '/rest/api/2/serverInfo');
      return typeof info?.deploymentType === 'string' ? info.deploymentType : undefined;
    },
    async addComment(issueKey, body, property) {
      const made = await call<JiraComment>('POST', `/rest/api/3/issue/${path(issueKey)}/comment`, {
        body,
        ...(property === undefined ? {} : { properties: [property] }),
      });
      if (typeof made?.id !== 'string') throw new JiraApiError(200, 'comment: no id');
      return made;
    },
    async updateComment(issueKey, commentId, body) {
      await call('PUT', `/rest/api/3/issue/${path(issueKey)}/comment/${path(commentId)}`, {
        body,
      });
    },
    async recentComments(issueKey) {
      const page = await call<{ comments?: JiraComment[] }>(
        'GET',
        `/rest/api/3/issue/${path(issueKey)}/comment?orderBy=-created&maxResults=100`,
      );
      const ids = (page?.comments ?? []).map((c) => Number(c.id)).filter(Number.isSafeInteger);
      if (ids.length === 0) return [];
      // Only "Get comments by IDs" expands a comment's properties.
      const listed = await call<{ values?: JiraComment[] }>(
        'POST',
        '/rest/api/3/comment/list?expand=properties',
        { ids },
      );
      return [...(listed?.values ?? [])].sort((a, b) => Number(a.id) - Number(b.id));
    },
    async transitions(issueKey) {
      const page = await call<{ transitions?: JiraTransition[] }>(
        'GET',
        `/rest/api/3/issue/${path(issueKey)}/transitions`,
      );
      return page?.transitions ?? [];
    },
    async transition(issueKey, transitionId) {
      await call('POST', `/rest/api/3/issue/${path(issueKey)}/transitions`, {
        transition: { id: transitionId },
      });
    },
    async holdsPermissions(projectKey, accountId, permissions) {
      const q = new URLSearchParams({
        accountId,
        projectKey,
        permissions: permissions.join(','),
      });
      const users = await call<{ accountId?: unknown }[]>(
        'GET',
        `/rest/api/3/user/permission/search?${q.toString()}`,
      );
      return Array.isArray(users) && users.some((u) => u?.accountId === accountId);
    },
    async registerWebhooks(url, webhooks) {
      const made = await call<{
        webhookRegistrationResult?: { createdWebhookId?: unknown; errors?: unknown }[];
      }>('POST', '/rest/api/3/webhook', { url, webhooks });
      const ids: number[] = [];
      const errors: string[] = [];
      for (const r of made?.webhookRegistrationResult ?? []) {
        if (typeof r?.createdWebhookId === 'number') ids.push(r.createdWebhookId);
        else if (Array.isArray(r?.errors)) errors.push(...r.errors.map(String));
      }
      return { ids, errors };
    },
    async deleteWebhooks(ids) {
      await call('DELETE', '/rest/api/3/webhook', { webhookIds: ids });
    },
    async refreshWebhooks(ids) {
      const done = await call<{ expirationDate?: unknown }>('PUT', '/rest/api/3/webhook/refresh', {
        webhookIds: ids,
      });
      const at =
        typeof done?.expirationDate === 'string' || typeof done?.expirationDate === 'number'
          ? new Date(done.expirationDate).getTime()
          : NaN;
      return Number.isFinite(at) ? at : undefined;
    },
  };
}
