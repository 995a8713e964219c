/**
 * Route table types, path matching, body reading and answer writing for node:http.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EmulatorProblem, problemBody } from './problem.js';
import { DEFAULT_SECURITY_HEADERS } from '../../core/ingress/security-headers.js';

export interface RouteRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

export interface RouteResult {
  status: number;
  json?: unknown;
  html?: string;
  headers?: Record<string, string>;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Template relative to its prefix, e.g. '/agent/runs/:id'. */
  path: string;
  handle(req: RouteRequest): RouteResult | Promise<RouteResult>;
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** Match `path` against the routes; `methodMismatch` when only the method differs. */
export function matchRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { match?: RouteMatch; allowed: string[] } {
  const segments = path.split('/').filter((s) => s !== '');
  const allowed: string[] = [];
  for (const route of routes) {
    const parts = route.path.split('/').filter((s) => s !== '');
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const part = parts[i] as string;
      const seg = segments[i] as string;
      if (part.startsWith(':')) {
        try {
          params[part.slice(1)] = decodeURIComponent(seg);
        } catch {
          ok = false;
        }
      } else ok = part === seg;
    }
    if (!ok) continue;
    if (route.method === method) return { match: { route, params }, allowed };
    allowed.push(route.method);
  }
  return { allowed };
}

export const MAX_BODY_BYTES = 1024 * 1024;

/** The parsed JSON body (undefined when empty). Throws 400/413 problems. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) {
      throw new EmulatorProblem(413, 'invalid_request', `the body exceeds ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EmulatorProblem(400, 'invalid_request', 'the body is not valid JSON');
  }
}

export function writeResult(res: ServerResponse, result: RouteResult): void {
  const isHtml = result.html !== undefined;
  const payload = result.html ?? JSON.stringify(result.json ?? {});
  res.writeHead(result.status, {
    'content-type': isHtml ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    ...DEFAULT_SECURITY_HEADERS,
    ...result.headers,
  });
  res.end(payload);
}

export function problemResult(problem: EmulatorProblem, instance: string): RouteResult {
  const headers: Record<string, string> = {
    'content-type': 'application/problem+json; charset=utf-8',
  };
  if (problem.options.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(problem.options.retryAfterSeconds);
  }
  if (problem.status === 401) headers['www-authenticate'] = 'Bearer';
  return { status: problem.status, json: problemBody(problem, instance), headers };
}
