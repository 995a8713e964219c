/**
 * One GraphQL call to Linear's API (LINEAR_API_URL) with the app's token, through the SDK's
 * `LinearClient` (its transport, authorization header, HTTPS rule and error types). The
 * relay sends its own small documents (requests.ts) rather than the SDK's generated
 * operations: Linear limits requests by query complexity, and the generated ones select
 * whole objects and fetch each relation with a request of its own.
 *
 * What goes wrong becomes a `DeliveryError` the outbox can act on: rate limits, 5xx and an
 * unreachable API may be retried (a rate limit after its `Retry-After`); an authentication,
 * permission or input error is permanent, and "Entity not found" is `not_found`.
 */
import type * as LinearSdk from '@linear/sdk';
import { DeliveryError } from '../../core/ports/index.js';

type Sdk = typeof LinearSdk;
let loading: Promise<Sdk> | undefined;
/** The SDK is large: loaded on the first call, so a relay without Linear never pays for it. */
const sdk = (): Promise<Sdk> => (loading ??= import('@linear/sdk'));

/** Start loading the SDK now (where Linear is on), so the first activity does not wait for it. */
export function preloadLinearSdk(): void {
  sdk().catch(() => {
    loading = undefined;
  });
}

export interface LinearGraphqlDeps {
  apiUrl: string;
  token: string;
  /** Per-request timeout. Default 10 s. */
  timeoutMs?: number;
}

export type LinearGraphql = <T>(query: string, variables: Record<string, unknown>) => Promise<T>;

/** A personal API key (`lin_api_…`) goes bare; anything else is an OAuth (app-actor) token. */
function credentials(token: string): { apiKey: string } | { accessToken: string } {
  return token.startsWith('lin_api_') ? { apiKey: token } : { accessToken: token };
}

/**
 * Linear refused the token itself (an authentication error): an expired OAuth access token
 * reads so, and a refreshed token may then succeed where a retry of the same one cannot.
 */
export class LinearTokenRejected extends DeliveryError {}

/** What went wrong, as the outbox acts on it. */
function asDeliveryError(
  err: unknown,
  { LinearError, LinearErrorType, RatelimitedLinearError }: Sdk,
): DeliveryError {
  if (!(err instanceof LinearError))
    return new DeliveryError('unavailable', 'Linear did not answer', true, undefined, {
      cause: err,
    });
  const message = `Linear: ${err.message.slice(0, 200)}`;
  const type = err.type ?? LinearErrorType.Unknown;
  const status = err.status ?? 0;
  // The SDK reads `Retry-After` of a rate limit (seconds); other failures use the backoff.
  const wait =
    err instanceof RatelimitedLinearError && err.retryAfter !== undefined
      ? Math.min(Math.max(err.retryAfter, 0), 600) * 1000
      : undefined;
  const retryable: string[] = [
    LinearErrorType.NetworkError,
    LinearErrorType.InternalError,
    LinearErrorType.LockTimeout,
  ];
  const refused: string[] = [LinearErrorType.Forbidden, LinearErrorType.FeatureNotAccessible];
  if (type === LinearErrorType.Ratelimited || status === 429)
    return new DeliveryError('rate_limited', message, true, wait);
  if (retryable.includes(type) || status >= 500)
    return new DeliveryError('unavailable', message, true);
  if (type === LinearErrorType.AuthenticationError || status === 401)
    return new LinearTokenRejected('forbidden', message, false);
  if (refused.includes(type) || status === 403)
    return new DeliveryError('forbidden', message, false);
  if (err.errors?.some((e) => /entity not found/i.test(e.message)))
    return new DeliveryError('not_found', message, false);
  if (type === LinearErrorType.Unknown && status < 400)
    return new DeliveryError('unknown', message, true);
  return new DeliveryError('invalid', message, false);
}

export function createLinearGraphql(deps: LinearGraphqlDeps): LinearGraphql {
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const auth = credentials(deps.token);
  return async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
    const linear = await sdk();
    // A client per call, for the call's own deadline; this refuses plain HTTP off loopback.
    const client = new linear.LinearClient({
      ...auth,
      apiUrl: deps.apiUrl,
      signal: AbortSignal.timeout(timeoutMs),
    });
    try {
      const answer = await client.client.rawRequest<T, Record<string, unknown>>(query, variables);
      return answer.data as T;
    } catch (err) {
      throw asDeliveryError(err, linear);
    }
  };
}
