/**
 * One GraphQL call to Linear's API (LINEAR_API_URL) over undici, with the app's token. What
 * goes wrong becomes a `DeliveryError` the outbox can act on: 429 and 5xx (and Linear's
 * `RATELIMITED` error) may be retried, after `Retry-After` when given; an authentication or
 * validation error is permanent.
 */
import { request } from 'undici';
import { DeliveryError } from '../../core/ports/index.js';

export interface LinearGraphqlDeps {
  apiUrl: string;
  token: string;
  /** Per-request timeout. Default 10 s. */
  timeoutMs?: number;
}

export type LinearGraphql = <T>(query: string, variables: Record<string, unknown>) => Promise<T>;

interface GraphqlAnswer {
  data?: unknown;
  errors?: { message?: string; extensions?: { code?: string; type?: string } }[];
}

function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 600) * 1000 : undefined;
}

/** `Bearer` for an OAuth (app-actor) token; a personal API key (`lin_api_…`) goes bare. */
function authorization(token: string): string {
  return token.startsWith('lin_api_') ? token : `Bearer ${token}`;
}

export function createLinearGraphql(deps: LinearGraphqlDeps): LinearGraphql {
  const timeoutMs = deps.timeoutMs ?? 10_000;
  return async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
    let res;
    try {
      res = await request(deps.apiUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: authorization(deps.token),
        },
        body: JSON.stringify({ query, variables }),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (err) {
      throw new DeliveryError('unavailable', 'Linear did not answer', true, undefined, {
        cause: err,
      });
    }
    const text = await res.body.text();
    const wait = retryAfterMs(res.headers['retry-after']);
    if (res.statusCode === 429) throw new DeliveryError('rate_limited', 'Linear: 429', true, wait);
    if (res.statusCode >= 500)
      throw new DeliveryError('unavailable', `Linear: ${res.statusCode}`, true, wait);
    let answer: GraphqlAnswer;
    try {
      answer = JSON.parse(text) as GraphqlAnswer;
    } catch {
      throw new DeliveryError('unknown', `Linear: ${res.statusCode}, not JSON`, true);
    }
    const first = answer.errors?.[0];
    if (first) {
      const code = first.extensions?.code ?? first.extensions?.type ?? '';
      const message = `Linear: ${(first.message ?? 'error').slice(0, 200)}`;
      if (/RATELIMITED/i.test(code)) throw new DeliveryError('rate_limited', message, true, wait);
      if (res.statusCode === 401 || /AUTHENTICATION/i.test(code))
        throw new DeliveryError('forbidden', message, false);
      if (res.statusCode === 403 || /FORBIDDEN/i.test(code))
        throw new DeliveryError('forbidden', message, false);
      if (/NOT_?FOUND|ENTITY_NOT_FOUND/i.test(code))
        throw new DeliveryError('not_found', message, false);
      throw new DeliveryError('invalid', message, false);
    }
    if (res.statusCode >= 400)
      throw new DeliveryError('invalid', `Linear: ${res.statusCode}`, false);
    return answer.data as T;
  };
}
