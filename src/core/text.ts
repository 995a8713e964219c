/** Plain-text helpers every platform and the runs share: one clipper, one RegExp escape. */

const ELLIPSIS = '…';

/** At most `max` characters (never half a surrogate pair), ending with '…' when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return ELLIPSIS.slice(0, Math.max(0, max));
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}

/** `text` as a literal inside a regular expression (also `/` and `-`, for any position). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
