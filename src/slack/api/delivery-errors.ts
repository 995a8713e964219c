/**
 * Web API failures -> `DeliveryError`, so the outbox can reschedule (429 with Retry-After,
 * 5xx, network) or park (a deleted channel, a missing scope) without knowing Slack. Read
 * through the WebClient's stable error codes, never message text.
 */
import type { DeliveryErrorCode } from '../../core/ports/index.js';
import { DeliveryError } from '../../core/ports/index.js';

const RATE_LIMITED = 'slack_webapi_rate_limited_error';
const PLATFORM = 'slack_webapi_platform_error';
const HTTP = 'slack_webapi_http_error';
const REQUEST = 'slack_webapi_request_error';

/** Slack's `error` strings by what they mean for a retry. */
const PLATFORM_ERRORS: Record<string, { code: DeliveryErrorCode; retryable: boolean }> = {};
function classify(code: DeliveryErrorCode, retryable: boolean, names: string[]): void {
  for (const name of names) PLATFORM_ERRORS[name] = { code, retryable };
}
classify('rate_limited', true, ['ratelimited', 'rate_limited']);
classify('unavailable', true, [
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);
classify('not_found', false, [
  'channel_not_found',
  'message_not_found',
  'thread_not_found',
  'user_not_found',
]);
classify('forbidden', false, [
  'not_in_channel',
  'is_archived',
  'user_not_in_channel',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
  'missing_scope',
  'not_authed',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
  'cant_update_message',
  'ekm_access_denied',
]);
classify('invalid', false, [
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'no_text',
  'invalid_arguments',
  'invalid_arg_name',
  'invalid_name',
  'too_many_reactions',
  'bad_timestamp',
  'invalid_cursor',
]);

interface CodedLike {
  code?: unknown;
  retryAfter?: unknown;
  statusCode?: unknown;
  data?: { error?: unknown; response_metadata?: { retryAfter?: unknown } };
}

/** The Slack `error` string of a platform error (`channel_not_found`, …), if it is one. */
export function slackErrorName(err: unknown): string | undefined {
  const e = err as CodedLike | null;
  if (typeof e !== 'object' || e === null || e.code !== PLATFORM) return undefined;
  return typeof e.data?.error === 'string' ? e.data.error : undefined;
}

function seconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? value * 1000
    : undefined;
}

export function toDeliveryError(err: unknown, method: string): DeliveryError {
  if (err instanceof DeliveryError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as CodedLike;
  const what = `Slack ${method}`;
  const cause = { cause: err };
  if (e.code === RATE_LIMITED) {
    const after = seconds(e.retryAfter);
    return new DeliveryError('rate_limited', `${what}: rate limited`, true, after, cause);
  }
  if (e.code === PLATFORM) {
    const name = slackErrorName(err) ?? 'unknown_error';
    const known = PLATFORM_ERRORS[name] ?? { code: 'unknown' as const, retryable: false };
    const after =
      known.code === 'rate_limited' ? seconds(e.data?.response_metadata?.retryAfter) : undefined;
    return new DeliveryError(known.code, `${what}: ${name}`, known.retryable, after, cause);
  }
  if (e.code === HTTP) {
    const status = typeof e.statusCode === 'number' ? e.statusCode : 0;
    if (status === 429)
      return new DeliveryError('rate_limited', `${what}: HTTP 429`, true, undefined, cause);
    const retryable = status >= 500 || status === 408;
    const code = retryable ? 'unavailable' : 'invalid';
    return new DeliveryError(code, `${what}: HTTP ${status}`, retryable, undefined, cause);
  }
  if (e.code === REQUEST) {
    return new DeliveryError(
      'unavailable',
      `${what}: Slack could not be reached`,
      true,
      undefined,
      cause,
    );
  }
  // Anything else (e.g. a 429 without a usable Retry-After): try again later.
  return new DeliveryError('unknown', `${what}: unexpected failure`, true, undefined, cause);
}
