/**
 * What an answer means: a 2xx body must be JSON that passes the endpoint's zod schema (else
 * `response_validation` error naming the failing field paths); anything else is a typed error.
 */
import type { z } from 'zod';
import { AgentApiError, type ValidationIssue } from './errors.js';
import { errorFromResponse, type ResponseErrorContext } from './response-error.js';

const MAX_ISSUES_IN_MESSAGE = 5;

export type AnswerContext = ResponseErrorContext;

/** The validated body of a 2xx answer; throws the matching AgentApiError otherwise. */
export function parseAnswer<T>(schema: z.ZodType<T>, ctx: AnswerContext): T {
  if (ctx.status < 200 || ctx.status >= 300) throw errorFromResponse(ctx);
  let json: unknown;
  if (ctx.rawBody.trim() !== '') {
    try {
      json = JSON.parse(ctx.rawBody);
    } catch (err) {
      throw validationError(ctx, [{ path: '(body)', message: 'not JSON' }], err);
    }
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)',
      message: issue.message,
    }));
    throw validationError(ctx, issues);
  }
  return parsed.data;
}

function validationError(
  ctx: AnswerContext,
  issues: ValidationIssue[],
  cause?: unknown,
): AgentApiError {
  const listed = issues
    .slice(0, MAX_ISSUES_IN_MESSAGE)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join('; ');
  return new AgentApiError('response_validation', {
    message: ctx.redact(
      `${ctx.method} ${ctx.route} answered ${ctx.status} with an invalid body: ${listed}`,
    ),
    status: ctx.status,
    retryable: false,
    headers: ctx.headers,
    rawBody: ctx.redact(ctx.rawBody),
    issues,
    cause,
  });
}
