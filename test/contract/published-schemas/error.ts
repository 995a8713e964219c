/**
 * Error: the RFC 7807 problem body of every non-2xx answer. `type` is the published URI of
 * the error code: `https://docs.warp.dev/reference/api-and-sdk/troubleshooting/errors/{code}`,
 * with `{code}` from PlatformErrorCode. `provider` and `auth_url` come with
 * `external_authentication_required`.
 */
import { z } from 'zod';
import { PLATFORM_ERROR_CODES, Uri } from './common.js';

export const ERROR_TYPE_BASE =
  'https://docs.warp.dev/reference/api-and-sdk/troubleshooting/errors/';

export const ErrorType = z
  .url()
  .refine(
    (t) =>
      t.startsWith(ERROR_TYPE_BASE) &&
      (PLATFORM_ERROR_CODES as readonly string[]).includes(t.slice(ERROR_TYPE_BASE.length)),
    `${ERROR_TYPE_BASE}{a published error code}`,
  );

export const ErrorBody = z.strictObject({
  type: ErrorType,
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  error: z.string(),
  retryable: z.boolean().optional(),
  trace_id: z.string().optional(),
  provider: z.string().optional(),
  auth_url: Uri.optional(),
});
