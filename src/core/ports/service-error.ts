/**
 * Stable codes of service failure. The agent client's errors carry one as `code`; the core
 * reads errors only through `isServiceError`, never by message text or class identity.
 */
export type ServiceErrorCode =
  | 'bad_request'
  | 'authentication'
  | 'permission_denied'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limit'
  | 'internal_server'
  | 'connection'
  | 'connection_timeout'
  | 'response_validation';

/**
 * Marks an error as the Agent Run Service's. Codes are stable per error class, not unique
 * across the relay (a delivery can fail `not_found` too), so the code alone does not say it.
 */
export const SERVICE_ERROR: unique symbol = Symbol('agent-relay.service-error');

export interface ServiceErrorLike {
  readonly [SERVICE_ERROR]: true;
  code: ServiceErrorCode;
  /** HTTP status when the service answered. */
  status?: number;
  /** The service's error code (last segment of the problem `type`), e.g. `resource_unavailable`. */
  serviceCode?: string;
  retryable: boolean;
  retryAfterMs?: number;
  /** The service's `detail` (plain text, may be shown to users). */
  detail?: string;
  /** A create whose request may have reached the service: reconcile, do not blindly retry. */
  outcomeUnknown?: boolean;
  /** 401 `external_authentication_required`: the external provider to authorize. */
  provider?: string;
  /** 401 `external_authentication_required`: the requester's personal link; never log it. */
  authUrl?: string;
  message: string;
}

const SERVICE_ERROR_CODES: ReadonlySet<string> = new Set<ServiceErrorCode>([
  'bad_request',
  'authentication',
  'permission_denied',
  'not_found',
  'conflict',
  'unprocessable',
  'rate_limit',
  'internal_server',
  'connection',
  'connection_timeout',
  'response_validation',
]);

export function isServiceError(err: unknown): err is ServiceErrorLike & Error {
  if (!(err instanceof Error)) return false;
  const candidate = err as Partial<Record<keyof ServiceErrorLike, unknown>>;
  return (
    candidate[SERVICE_ERROR] === true &&
    typeof candidate.code === 'string' &&
    SERVICE_ERROR_CODES.has(candidate.code) &&
    typeof candidate.retryable === 'boolean'
  );
}
