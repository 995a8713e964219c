/**
 * The media type of a `Content-Type` header, lower-cased and without its parameters
 * (`application/json; charset=utf-8` -> `application/json`); '' when absent.
 */
export function mediaTypeOf(header: string | readonly string[] | undefined): string {
  const value = typeof header === 'string' ? header : (header?.[0] ?? '');
  return (value.split(';')[0] ?? '').trim().toLowerCase();
}

/** The two content types Slack and GitHub deliver: JSON, or form-encoded. */
export const WEBHOOK_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/x-www-form-urlencoded',
]);
