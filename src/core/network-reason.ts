/**
 * Why a request got no answer, in words a person can act on: the system error code that the
 * HTTP client buried in its `cause` chain (a fetch failure, an Octokit request error, our own
 * agent client's error) read as "nothing listens there", "the host name does not resolve"…,
 * with the code kept for a search. A library's generic message ("fetch failed") and, for an
 * Octokit error, its stand-in status 500 for "no response" say none of that.
 */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve (DNS did not answer)',
  EAI_NONAME: 'the host name does not resolve',
  ENETUNREACH: 'no route to that network',
  EHOSTUNREACH: 'no route to that host',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'no answer in time',
  UND_ERR_CONNECT_TIMEOUT: 'no answer in time',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate cannot be verified",
};

/** The first system error code (`ECONNREFUSED`, `UND_ERR_…`) in `err` or its causes. */
export function networkErrorCode(err: unknown, depth = 0): string | undefined {
  if (depth > 6 || typeof err !== 'object' || err === null) return undefined;
  // `original`: where Slack's WebClient keeps the HTTP client's error.
  const { code, cause, errors, original } = err as {
    code?: unknown;
    cause?: unknown;
    errors?: unknown;
    original?: unknown;
  };
  if (typeof code === 'string' && (code in REASONS || /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)))
    return code;
  if (Array.isArray(errors) && errors.length > 0) {
    const inner = networkErrorCode(errors[0], depth + 1);
    if (inner) return inner;
  }
  for (const inner of [original, cause]) {
    const found = inner === err ? undefined : networkErrorCode(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** "nothing listens there (ECONNREFUSED)", or the error's own message when no code says more. */
export function networkReason(err: unknown): string {
  const code = networkErrorCode(err);
  if (code !== undefined) return `${REASONS[code] ?? 'no connection'} (${code})`;
  return err instanceof Error ? err.message : String(err);
}
