/**
 * The one error of the Agent Run Service client. It carries a stable `code` (ServiceErrorCode:
 * `bad_request` 400, `authentication` 401, `permission_denied` 403, `not_found` 404, `conflict`
 * 409, `unprocessable` 422, `rate_limit` 429, `internal_server` 5xx, `connection` and
 * `connection_timeout` for no answer, `response_validation` for a 2xx body off the contract)
 * and the service's mark, so `isServiceError` (core/ports/service-error.ts) recognizes it;
 * callers branch on `code`, `status`, `serviceCode` and `retryable`, never on message text. Messages
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
  /**
   * `connection` and `connection_timeout`: true when the failure provably happened before any
   * byte was sent (refused, DNS, connect timeout).
   */
  beforeSend?: boolean;
  /** `response_validation`: the fields of a 2xx body that failed the contract schema. */
  issues?: readonly ValidationIssue[];
  /** 401 `external_authentication_required`: the external provider to authorize. */
  provider?: string;
  /**
   * 401 `external_authentication_required`: the requester's own link to authorize the
   * provider. Personal: shown only to the requester, never logged or posted publicly.
   */
  authUrl?: string;
  cause?: unknown;
}

export interface ValidationIssue {
  path: string;
  message: string;
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
  /** `connection`/`connection_timeout`: nothing reached the service. False for other codes. */
  readonly beforeSend: boolean;
  /** `response_validation`: the failing field paths. Empty for other codes. */
  readonly issues: readonly ValidationIssue[];
  /** 401 `external_authentication_required`: the provider to authorize. */
  readonly provider?: string;
  /** 401 `external_authentication_required`: the requester's personal link (never logged). */
  readonly authUrl?: string;

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
    this.beforeSend = init.beforeSend ?? false;
    this.issues = init.issues ?? [];
    this.provider = init.provider;
    // Not enumerable: a logger that serializes the error does not print the personal link.
    Object.defineProperty(this, 'authUrl', { value: init.authUrl, enumerable: false });
  }

  /** @deprecated Read `code`: the same stable error code under its former name. */
  get kind(): ServiceErrorCode {
    return this.code;
  }
}

/** The stable code for an HTTP status; other non-2xx below 500 give a generic `bad_request`. */
const CODE_BY_STATUS: ReadonlyMap<number, ServiceErrorCode> = new Map<number, ServiceErrorCode>([
  [400, 'bad_request'],
  [401, 'authentication'],
  [403, 'permission_denied'],
  [404, 'not_found'],
  [409, 'conflict'],
  [422, 'unprocessable'],
  [429, 'rate_limit'],
]);

export function codeForStatus(status: number): ServiceErrorCode {
  if (status >= 500) return 'internal_server';
  return CODE_BY_STATUS.get(status) ?? 'bad_request';
}

/** The error for a non-2xx answer: its code follows from the status. */
export function errorForStatus(status: number, init: AgentApiErrorInit): AgentApiError {
  return new AgentApiError(codeForStatus(status), init);
}

/** True for the codes of a call that got no (complete) answer. */
export function isConnectionFailure(err: AgentApiError): boolean {
  return err.code === 'connection' || err.code === 'connection_timeout';
}
