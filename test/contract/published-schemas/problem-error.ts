/**
 * The published `Error` answer (RFC 7807 problem details, `application/problem+json`) as
 * error.ts has it, and the description's own list of error codes (`PlatformErrorCode`, without
 * the SDK's additions): what the emulator's refusals are checked against.
 */
import { z } from 'zod';
import { PUBLISHED_ERROR_CODES } from './common.js';
import { ERROR_TYPE_BASE, ErrorBody } from './error.js';

export const PublishedErrorCode = z.enum(PUBLISHED_ERROR_CODES);

/** The `Error` body, its `type` any URI (`publishedCodeOf` reads it), members beyond it kept. */
export const PublishedError = z.looseObject({ ...ErrorBody.shape, type: z.url() });

/** The error code a published `type` names (its last path segment), checked against the list. */
export function publishedCodeOf(type: string): z.infer<typeof PublishedErrorCode> {
  expectPrefix(type);
  return PublishedErrorCode.parse(type.slice(ERROR_TYPE_BASE.length));
}

function expectPrefix(type: string): void {
  if (!type.startsWith(ERROR_TYPE_BASE)) {
    throw new Error(`problem type ${type} is not under ${ERROR_TYPE_BASE}`);
  }
}
