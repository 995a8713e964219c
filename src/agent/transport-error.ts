/**
 * Classifies what undici throws when no complete response arrived. `beforeSend` marks the
 * failures that provably happened before any byte left (refused, DNS, connect timeout): only
 * those make an unsafe call (create) safe to repeat.
 */
import { AgentApiError } from './errors.js';

const BEFORE_SEND_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/** The error code of `err`, looking into `cause` and AggregateError members (happy eyeballs). */
export function transportErrorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, cause, errors } = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  if (Array.isArray(errors) && errors.length > 0) return transportErrorCode(errors[0]);
  return cause === undefined || cause === err ? undefined : transportErrorCode(cause);
}

export interface TransportContext {
  method: string;
  route: string;
  timeoutMs: number;
  /** Our own per-attempt timer fired. */
  timedOut: boolean;
  redact: (text: string) => string;
}

export function errorFromTransport(err: unknown, ctx: TransportContext): AgentApiError {
  const what = `${ctx.method} ${ctx.route}`;
  if (ctx.timedOut) {
    return new AgentApiError('connection_timeout', {
      message: `${what} timed out after ${ctx.timeoutMs} ms`,
      retryable: true,
      beforeSend: false,
      cause: err,
    });
  }
  const code = transportErrorCode(err);
  const reason = ctx.redact(err instanceof Error ? err.message : String(err));
  const init = {
    message: `${what} failed without a response: ${reason}${code && !reason.includes(code) ? ` (${code})` : ''}`,
    retryable: true,
    beforeSend: code !== undefined && BEFORE_SEND_CODES.has(code),
    cause: err,
  };
  return new AgentApiError(
    code !== undefined && TIMEOUT_CODES.has(code) ? 'connection_timeout' : 'connection',
    init,
  );
}
