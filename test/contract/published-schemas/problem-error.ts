/**
 * The published `Error` answer (RFC 7807 problem details, `application/problem+json`), field
 * for field, with the extension members that some error codes add (`provider`, `auth_url`),
 * and the published list of error codes (`PlatformErrorCode`).
 */
import { z } from 'zod';

/** Where the published description says a problem `type` points: this base + the code. */
export const PUBLISHED_PROBLEM_TYPE_BASE =
  'https://docs.warp.dev/reference/api-and-sdk/troubleshooting/errors/';

export const PublishedErrorCode = z.enum([
  'insufficient_credits',
  'feature_not_available',
  'external_authentication_required',
  'not_authorized',
  'invalid_request',
  'resource_not_found',
  'budget_exceeded',
  'integration_disabled',
  'integration_not_configured',
  'operation_not_supported',
  'environment_setup_failed',
  'content_policy_violation',
  'conflict',
  'authentication_required',
  'resource_unavailable',
  'internal_error',
]);

export const PublishedError = z.object({
  type: z.url(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  error: z.string(),
  retryable: z.boolean().optional(),
  trace_id: z.string().optional(),
  provider: z.string().optional(),
  auth_url: z.url().optional(),
});

/** The error code a published `type` names (its last path segment), checked against the list. */
export function publishedCodeOf(type: string): z.infer<typeof PublishedErrorCode> {
  expectPrefix(type);
  return PublishedErrorCode.parse(type.slice(PUBLISHED_PROBLEM_TYPE_BASE.length));
}

function expectPrefix(type: string): void {
  if (!type.startsWith(PUBLISHED_PROBLEM_TYPE_BASE)) {
    throw new Error(`problem type ${type} is not under ${PUBLISHED_PROBLEM_TYPE_BASE}`);
  }
}
