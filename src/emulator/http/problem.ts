/**
 * application/problem+json answers. Handlers throw `EmulatorProblem`; the server renders it.
 */
import { randomBytes } from 'node:crypto';
import { RelayError } from '../../core/relay-error.js';

/** The published problem `type`: this base, then the error code. */
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
  | 'method_not_allowed';

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
    readonly options: { retryable?: boolean; retryAfterSeconds?: number } = {},
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
  };
}
