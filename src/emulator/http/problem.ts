/**
 * application/problem+json answers. Handlers throw `EmulatorProblem`; the server renders it.
 */
import { randomBytes } from 'node:crypto';
import { RelayError } from '../../core/relay-error.js';

/** Where the published description says problem `type` URIs point: this base + the error code. */
export const PROBLEM_TYPE_BASE =
  'https://docs.warp.dev/reference/api-and-sdk/troubleshooting/errors/';

/** The problem codes the emulator answers with (the last segment of the problem `type`). */
export type EmulatorProblemCode =
  | 'invalid_request'
  | 'authentication_required'
  | 'not_authorized'
  | 'feature_not_available'
  | 'resource_not_found'
  | 'conflict'
  | 'operation_not_supported'
  | 'resource_unavailable'
  | 'internal_error'
  | 'method_not_allowed'
  | 'insufficient_credits'
  | 'budget_exceeded'
  | 'content_policy_violation'
  | 'integration_disabled'
  | 'integration_not_configured'
  | 'external_authentication_required'
  | 'environment_setup_failed';

/** The codes a fault may name for an injected 401/403 (the published list's refusals). */
export const REFUSAL_CODES = [
  'insufficient_credits',
  'budget_exceeded',
  'content_policy_violation',
  'feature_not_available',
  'integration_disabled',
  'integration_not_configured',
  'not_authorized',
  'external_authentication_required',
  'authentication_required',
] as const satisfies readonly EmulatorProblemCode[];

const TITLES: Record<EmulatorProblemCode, string> = {
  invalid_request: 'The request contains invalid or missing parameters.',
  authentication_required: 'A valid API key is required.',
  not_authorized: 'The API key may not do this.',
  feature_not_available: 'A feature this request needs is not enabled for the team.',
  resource_not_found: 'The resource was not found.',
  conflict: 'The request conflicts with the current state of the resource.',
  operation_not_supported: 'The operation is not supported for this resource.',
  resource_unavailable: 'The service is at capacity; try again shortly.',
  internal_error: 'An internal error occurred.',
  method_not_allowed: 'The method is not allowed on this resource.',
  insufficient_credits: 'The team has no remaining add-on credits.',
  budget_exceeded: 'The spending budget limit has been reached.',
  content_policy_violation: 'The prompt or setup commands violated the content policy.',
  integration_disabled: 'The integration is disabled and must be enabled.',
  integration_not_configured: 'The integration setup is incomplete.',
  external_authentication_required: 'An external service needs to be authorized first.',
  environment_setup_failed: 'The environment setup failed.',
};

const DEFAULT_CODE_BY_STATUS: Record<number, EmulatorProblemCode> = {
  400: 'invalid_request',
  401: 'authentication_required',
  403: 'not_authorized',
  404: 'resource_not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'invalid_request',
  422: 'operation_not_supported',
  429: 'resource_unavailable',
  503: 'resource_unavailable',
};

export function codeForStatus(status: number): EmulatorProblemCode {
  return DEFAULT_CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request');
}

export class EmulatorProblem extends RelayError<EmulatorProblemCode> {
  override readonly name = 'EmulatorProblem';
  constructor(
    readonly status: number,
    code: EmulatorProblemCode,
    readonly detail?: string,
    readonly options: {
      retryable?: boolean;
      retryAfterSeconds?: number;
      /** `external_authentication_required`: the provider and where to authorize it. */
      provider?: string;
      authUrl?: string;
    } = {},
  ) {
    super(code, detail ?? code);
  }
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  error: string;
  detail?: string;
  instance: string;
  retryable: boolean;
  trace_id: string;
  provider?: string;
  auth_url?: string;
}

export function problemBody(problem: EmulatorProblem, instance: string): ProblemBody {
  const title = TITLES[problem.code];
  const retryable = problem.options.retryable ?? (problem.status === 429 || problem.status >= 500);
  return {
    type: PROBLEM_TYPE_BASE + problem.code,
    title,
    status: problem.status,
    error: problem.detail ? `${title} (${problem.detail})` : title,
    ...(problem.detail ? { detail: problem.detail } : {}),
    instance,
    retryable,
    trace_id: randomBytes(8).toString('hex'),
    ...(problem.options.provider ? { provider: problem.options.provider } : {}),
    ...(problem.options.authUrl ? { auth_url: problem.options.authUrl } : {}),
  };
}
