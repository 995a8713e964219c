/**
 * Stable kinds of service failure. The agent client's errors carry one as `kind`; the core
 * reads errors only through `isServiceError`, never by message text or class identity.
 */
export type ServiceErrorKind =
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

export interface ServiceErrorLike {
  kind: ServiceErrorKind;
  /** HTTP status when the service answered. */
  status?: number;
  /** The service's error code (last segment of the problem `type`), e.g. `resource_unavailable`. */
  code?: string;
  retryable: boolean;
  retryAfterMs?: number;
  /** The service's `detail` (plain text, may be shown to users). */
  detail?: string;
  /** A create whose request may have reached the service: reconcile, do not blindly retry. */
  outcomeUnknown?: boolean;
  message: string;
}

const SERVICE_ERROR_KINDS: ReadonlySet<string> = new Set<ServiceErrorKind>([
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
  return (
    err instanceof Error &&
    typeof (err as { kind?: unknown }).kind === 'string' &&
    SERVICE_ERROR_KINDS.has((err as unknown as { kind: string }).kind) &&
    typeof (err as { retryable?: unknown }).retryable === 'boolean'
  );
}
