/**
 * Headers on every response the HTTP server (and the emulator) sends, HTML or not: no
 * content-type sniffing, no framing by another site, and a policy that runs no script and
 * loads nothing but images (the Slack install page's "Add to Slack" button) and inline
 * style. Pages that need more (the console: its own script and style) set their own policy,
 * which replaces this one.
 */
export const DEFAULT_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; img-src 'self' https:; style-src 'unsafe-inline'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
};

/** Text made safe to place in HTML, in an element or a quoted attribute. */
export function escapeHtmlText(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
