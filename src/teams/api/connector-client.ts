/**
 * The few Bot Connector REST calls the relay makes (the Bot Framework REST API,
 * "Conversations": send to a conversation, update an activity), with the bot's token from
 * Entra (client credentials for the cloud's Bot Framework scope, in the app's tenant: a
 * single-tenant bot; or from a managed identity), each under a timeout. A refused call is a `TeamsApiError` carrying the
 * status and `Retry-After`, which the notifier maps to a `DeliveryError`.
 */
import { RelayError } from '../../core/relay-error.js';
import type { AppToken, AppTokenSource } from './managed-identity.js';

/**
 * Where the bot's token comes from: the app's client secret (client credentials at the
 * cloud's login endpoint), or another source (a managed identity, managed-identity.ts).
 */
export type ConnectorCredential = { appPassword: string } | { appToken: AppTokenSource };

export type ConnectorClientDeps = ConnectorCredential & {
  appId: string;
  tenantId: string;
  /** `https://login.microsoftonline.com` (the cloud's). */
  loginEndpoint: string;
  /** `https://api.botframework.com/.default` (the cloud's). */
  botScope: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
};

/** A Bot Connector or Entra answer other than 2xx, or none at all (`status` 0). */
export class TeamsApiError extends RelayError<'teams_api'> {
  override readonly name = 'TeamsApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter?: string,
    options?: { cause?: unknown },
  ) {
    super('teams_api', message, options);
  }
}

/** An outgoing activity (a message, a typing indicator), as the REST schema has it. */
export interface OutgoingActivity {
  type: 'message' | 'typing';
  text?: string;
  textFormat?: 'markdown' | 'plain' | 'xml';
  attachments?: { contentType: string; content: unknown }[];
  entities?: unknown[];
  replyToId?: string;
  /** The Teams bot's `28:` id. */
  from?: { id: string };
}

export interface ConnectorClient {
  /** The bot's token for the Bot Connector (cached until shortly before it expires). */
  token(): Promise<string>;
  send(serviceUrl: string, conversationId: string, activity: OutgoingActivity): Promise<string>;
  update(
    serviceUrl: string,
    conversationId: string,
    activityId: string,
    activity: OutgoingActivity,
  ): Promise<void>;
}

const base = (serviceUrl: string) => serviceUrl.replace(/\/+$/, '');

export function createConnectorClient(deps: ConnectorClientDeps): ConnectorClient {
  const doFetch = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? 15_000;
  const now = deps.now ?? Date.now;
  let cached: { token: string; until: number } | undefined;
  let pending: Promise<string> | undefined;

  async function call(url: string, init: RequestInit, what: string): Promise<Response> {
    let res: Response;
    try {
      res = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new TeamsApiError(0, `${what}: no answer (${String(err)})`, undefined, { cause: err });
    }
    if (!res.ok) {
      const retryAfter = res.headers.get('retry-after') ?? undefined;
      await res.body?.cancel();
      throw new TeamsApiError(res.status, `${what}: answered ${res.status}`, retryAfter);
    }
    return res;
  }

  async function fromSource(source: AppTokenSource): Promise<AppToken> {
    try {
      return await source();
    } catch (err) {
      throw new TeamsApiError(0, `token (managed identity): ${String(err)}`, undefined, {
        cause: err,
      });
    }
  }

  async function fetchToken(): Promise<string> {
    if ('appToken' in deps) {
      const { token, expiresAt } = await fromSource(deps.appToken);
      const until = Math.max(now() + 60_000, (expiresAt ?? now() + 3_600_000) - 300_000);
      cached = { token, until };
      return token;
    }
    const url = `${base(deps.loginEndpoint)}/${encodeURIComponent(deps.tenantId)}/oauth2/v2.0/token`;
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: deps.appId,
      client_secret: deps.appPassword,
      scope: deps.botScope,
    });
    const res = await call(
      url,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
      'token',
    );
    const answer = (await res.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof answer.access_token !== 'string')
      throw new TeamsApiError(502, 'token: the answer has no access_token');
    const seconds = typeof answer.expires_in === 'number' ? answer.expires_in : 3600;
    cached = { token: answer.access_token, until: now() + Math.max(60, seconds - 300) * 1000 };
    return answer.access_token;
  }

  async function token(): Promise<string> {
    if (cached && cached.until > now()) return cached.token;
    pending ??= fetchToken().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  async function json(init: RequestInit): Promise<RequestInit> {
    return {
      ...init,
      headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
    };
  }

  const activitiesUrl = (serviceUrl: string, conversationId: string) =>
    `${base(serviceUrl)}/v3/conversations/${encodeURIComponent(conversationId)}/activities`;

  return {
    token,
    async send(serviceUrl, conversationId, activity) {
      const res = await call(
        activitiesUrl(serviceUrl, conversationId),
        await json({ method: 'POST', body: JSON.stringify(activity) }),
        'send activity',
      );
      const answer = (await res.json().catch(() => ({}))) as { id?: unknown };
      if (typeof answer.id !== 'string' || answer.id === '')
        throw new TeamsApiError(502, 'send activity: the answer has no id');
      return answer.id;
    },
    async update(serviceUrl, conversationId, activityId, activity) {
      const res = await call(
        `${activitiesUrl(serviceUrl, conversationId)}/${encodeURIComponent(activityId)}`,
        await json({ method: 'PUT', body: JSON.stringify({ ...activity, id: activityId }) }),
        'update activity',
      );
      await res.body?.cancel();
    },
  };
}
