/**
 * Paths and query strings. Path parameters are URL-encoded (and must not be empty, `.` or
 * `..`); array query values repeat the key (`state=QUEUED&state=INPROGRESS`).
 */
import { AgentApiError } from './errors.js';

export function encodePathParam(name: string, value: string): string {
  // WHATWG URL parsing folds `.`/`..` (even as %2E) into the path: such an id cannot be sent.
  if (typeof value !== 'string' || value.length === 0 || value === '.' || value === '..') {
    throw new AgentApiError('bad_request', {
      message: `${name} must be a non-empty string other than "." or ".."`,
      serviceCode: 'invalid_request',
      retryable: false,
    });
  }
  return encodeURIComponent(value);
}

/** `'/agent/runs/{runId}'` + `{runId: 'a/b'}` -> `'/agent/runs/a%2Fb'`. */
export function fillRoute(route: string, params: Readonly<Record<string, string>> = {}): string {
  return route.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    return encodePathParam(name, value ?? '');
  });
}

/** Scalars become `key=value`, arrays repeat the key; undefined, null and objects are skipped. */
export function buildQuery(query: object | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query) as [string, unknown][]) {
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (isScalar(item)) params.append(key, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
