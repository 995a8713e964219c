/**
 * Turns a non-2xx answer into a typed error: parses the problem body (application/problem+json)
 * field by field, so a partly malformed or non-JSON body still yields the status and raw text.
 */
import { errorForStatus, type AgentApiError, type ResponseHeaders } from './errors.js';
import { isRetryableStatus, parseRetryAfterMs } from './retry.js';
import { ProblemSchema, type Problem } from './schemas.js';

/** `https://…/errors/resource_unavailable` or `resource_unavailable` -> `resource_unavailable`. */
function errorCodeFromType(type: string | undefined): string | undefined {
  if (!type || type === 'about:blank') return undefined;
  const code = type
    .split(/[/#]/)
    .filter((part) => part.length > 0)
    .pop();
  return code?.trim() || undefined;
}

/** Every well-typed member of a problem body; ill-typed members are dropped, not fatal. */
export function parseProblem(rawBody: string): Problem | undefined {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const whole = ProblemSchema.safeParse(json);
  if (whole.success) return whole.data;
  const problem: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(ProblemSchema.shape)) {
    const field = schema.safeParse((json as Record<string, unknown>)[key]);
    if (field.success && field.data !== undefined) problem[key] = field.data;
  }
  return problem as Problem;
}

export interface ResponseErrorContext {
  method: string;
  route: string;
  status: number;
  headers: ResponseHeaders;
  rawBody: string;
  now: number;
  redact: (text: string) => string;
}

const SNIPPET_CHARS = 200;

export function errorFromResponse(ctx: ResponseErrorContext): AgentApiError {
  const problem = parseProblem(ctx.rawBody);
  const serviceCode = errorCodeFromType(problem?.type);
  const explanation =
    problem?.detail ??
    problem?.title ??
    problem?.error ??
    (problem ? undefined : ctx.rawBody.trim().slice(0, SNIPPET_CHARS) || undefined);
  const summary = [String(ctx.status), serviceCode].filter(Boolean).join(' ');
  const message = `${ctx.method} ${ctx.route} failed: ${summary}${explanation ? `: ${explanation}` : ''}`;
  return errorForStatus(ctx.status, {
    message: ctx.redact(message),
    status: ctx.status,
    serviceCode,
    retryable: problem?.retryable ?? isRetryableStatus(ctx.status),
    retryAfterMs: parseRetryAfterMs(ctx.headers, ctx.now),
    detail: problem?.detail,
    traceId: problem?.trace_id,
    ...(problem?.provider ? { provider: problem.provider } : {}),
    ...(problem?.auth_url ? { authUrl: problem.auth_url } : {}),
    headers: ctx.headers,
    // The authorization link is the requester's own: it stays out of what may be logged.
    rawBody: ctx.redact(
      problem?.auth_url ? ctx.rawBody.split(problem.auth_url).join('[auth_url]') : ctx.rawBody,
    ),
  });
}
