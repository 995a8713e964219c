/**
 * Errors of the Agent Run Service client. Each carries a stable `code` (ServiceErrorCode) and
 * the service's mark, so `isServiceError` (core/ports/service-error.ts) recognizes it; callers
 * branch on `code`, `status`, `serviceCode` and `retryable`, never on message text. Messages
 * never contain the API key.
 */
import { SERVICE_ERROR, type ServiceErrorCode } from '../core/ports/index.js';
import { RelayError } from '../core/relay-error.js';

export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface AgentApiErrorInit {
  message: string;
  status?: number;
  /** Last path segment of the problem `type`, e.g. `resource_unavailable`. */
  serviceCode?: string;
  retryable: boolean;
  retryAfterMs?: number;
  detail?: string;
  traceId?: string;
  headers?: ResponseHeaders;
  rawBody?: string;
  outcomeUnknown?: boolean;
  cause?: unknown;
}

export class AgentApiError extends RelayError<ServiceErrorCode> {
  override readonly name: string = 'AgentApiError';
  readonly [SERVICE_ERROR] = true as const;
  readonly status?: number;
  /** The service's own error code (last segment of the problem `type`); unknown codes are kept. */
  readonly serviceCode?: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly detail?: string;
  readonly traceId?: string;
  readonly headers: ResponseHeaders;
  readonly rawBody: string;
  /**
   * Set on a create/dispatch (or follow-up) whose request may have reached the service and
   * could not be reconciled: the caller must not blindly repeat it.
   */
  outcomeUnknown?: boolean;

  constructor(code: ServiceErrorCode, init: AgentApiErrorInit) {
    super(code, init.message, init);
    this.status = init.status;
    this.serviceCode = init.serviceCode;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs;
    this.detail = init.detail;
    this.traceId = init.traceId;
    this.headers = init.headers ?? {};
    this.rawBody = init.rawBody ?? '';
    if (init.outcomeUnknown !== undefined) this.outcomeUnknown = init.outcomeUnknown;
  }

  /** @deprecated Read `code`: the same stable error code under its former name. */
  get kind(): ServiceErrorCode {
    return this.code;
  }
}

export class BadRequestError extends AgentApiError {
  override readonly name: string = 'BadRequestError';
  constructor(init: AgentApiErrorInit) {
    super('bad_request', init);
  }
}
export class AuthenticationError extends AgentApiError {
  override readonly name: string = 'AuthenticationError';
  constructor(init: AgentApiErrorInit) {
    super('authentication', init);
  }
}
export class PermissionDeniedError extends AgentApiError {
  override readonly name: string = 'PermissionDeniedError';
  constructor(init: AgentApiErrorInit) {
    super('permission_denied', init);
  }
}
export class NotFoundError extends AgentApiError {
  override readonly name: string = 'NotFoundError';
  constructor(init: AgentApiErrorInit) {
    super('not_found', init);
  }
}
export class ConflictError extends AgentApiError {
  override readonly name: string = 'ConflictError';
  constructor(init: AgentApiErrorInit) {
    super('conflict', init);
  }
}
export class UnprocessableEntityError extends AgentApiError {
  override readonly name: string = 'UnprocessableEntityError';
  constructor(init: AgentApiErrorInit) {
    super('unprocessable', init);
  }
}
export class RateLimitError extends AgentApiError {
  override readonly name: string = 'RateLimitError';
  constructor(init: AgentApiErrorInit) {
    super('rate_limit', init);
  }
}
export class InternalServerError extends AgentApiError {
  override readonly name: string = 'InternalServerError';
  constructor(init: AgentApiErrorInit) {
    super('internal_server', init);
  }
}

export interface ConnectionErrorInit extends AgentApiErrorInit {
  /** True when the failure provably happened before any byte was sent (refused, DNS, connect timeout). */
  beforeSend: boolean;
}

/** No (complete) response: refused, reset, DNS failure... */
export class ConnectionError extends AgentApiError {
  override readonly name: string = 'ConnectionError';
  readonly beforeSend: boolean;
  constructor(init: ConnectionErrorInit, code: 'connection' | 'connection_timeout' = 'connection') {
    super(code, init);
    this.beforeSend = init.beforeSend;
  }
}

/** The attempt ran out of time (client-side timeout, or undici's connect/headers/body timeout). */
export class ConnectionTimeoutError extends ConnectionError {
  override readonly name: string = 'ConnectionTimeoutError';
  constructor(init: ConnectionErrorInit) {
    super(init, 'connection_timeout');
  }
}

export interface ValidationIssue {
  path: string;
  message: string;
}

/** A 2xx whose body is not JSON or fails the contract schema. */
export class ResponseValidationError extends AgentApiError {
  override readonly name: string = 'ResponseValidationError';
  readonly issues: readonly ValidationIssue[];
  constructor(init: AgentApiErrorInit & { issues: readonly ValidationIssue[] }) {
    super('response_validation', init);
    this.issues = init.issues;
  }
}

type HttpErrorClass = new (init: AgentApiErrorInit) => AgentApiError;

const BY_STATUS: ReadonlyMap<number, HttpErrorClass> = new Map<number, HttpErrorClass>([
  [400, BadRequestError],
  [401, AuthenticationError],
  [403, PermissionDeniedError],
  [404, NotFoundError],
  [409, ConflictError],
  [422, UnprocessableEntityError],
  [429, RateLimitError],
]);

/** The typed error for an HTTP status; other non-2xx below 500 give a generic `bad_request`. */
export function errorForStatus(status: number, init: AgentApiErrorInit): AgentApiError {
  if (status >= 500) return new InternalServerError(init);
  const ErrorClass = BY_STATUS.get(status);
  return ErrorClass ? new ErrorClass(init) : new AgentApiError('bad_request', init);
}
