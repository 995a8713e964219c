/**
 * Which published schemas apply to one recorded HTTP exchange with the service: the request
 * body or query of the endpoint, and its answer (the endpoint's 2xx shape, or the Error body
 * for any other status). A route the table does not know is reported, not skipped.
 */
import { z } from 'zod';
import { checkPublished, type PublishedName } from './index.js';
import { REPEATABLE_LIST_PARAMS } from './list-runs.js';

export interface RecordedExchange {
  method: string;
  /** Below the base URL (`/api/v1`), without the query: `/agent/runs/abc/cancel`. */
  path: string;
  query: URLSearchParams;
  /** The parsed JSON request body, `undefined` when none was sent. */
  body: unknown;
  status: number;
  /** The parsed JSON answer, `undefined` when empty. */
  answer: unknown;
}

export interface PublishedEndpoint {
  method: 'GET' | 'POST';
  /** `{x}` matches one path segment. */
  path: string;
  request?: PublishedName | 'none';
  query?: PublishedName;
  /** The 2xx answer; `undefined` when another part of the suite checks it. */
  answer?: PublishedName;
}

/** The endpoints the relay calls. Add a row (and its schemas) for a new one. */
export const PUBLISHED_ENDPOINTS: PublishedEndpoint[] = [
  { method: 'POST', path: '/agent/runs', request: 'RunAgentRequest', answer: 'RunAgentResponse' },
  { method: 'GET', path: '/agent/runs', query: 'ListRunsQuery', answer: 'ListRunsResponse' },
  { method: 'GET', path: '/agent/runs/{runId}', answer: 'RunItem' },
  {
    method: 'POST',
    path: '/agent/runs/{runId}/cancel',
    request: 'none',
    answer: 'CancelRunResponse',
  },
  {
    method: 'POST',
    path: '/agent/runs/{runId}/followups',
    request: 'RunFollowupRequest',
    answer: 'RunFollowupResponse',
  },
  {
    method: 'POST',
    path: '/agent/runs/{runId}/interrupt',
    request: 'none',
    answer: 'InterruptAccepted',
  },
  { method: 'GET', path: '/agent/runs/{runId}/conversation', answer: 'ConversationResponse' },
  { method: 'GET', path: '/agent/runs/{runId}/timeline', answer: 'TimelineResponse' },
  { method: 'GET', path: '/agent/artifacts/{artifactUid}', answer: 'ArtifactResponse' },
  { method: 'GET', path: '/agent/environments', answer: 'ListEnvironmentsResponse' },
  { method: 'GET', path: '/agent/models', answer: 'ListModelsResponse' },
  { method: 'GET', path: '/factory', query: 'ListFactoriesQuery', answer: 'ListFactoriesResponse' },
  { method: 'GET', path: '/factory/{uid}', answer: 'Factory' },
  {
    method: 'POST',
    path: '/factory/{uid}/runs',
    request: 'DispatchFactoryRunRequest',
    answer: 'DispatchFactoryRunResponse',
  },
];

function matchesPath(template: string, path: string): boolean {
  const t = template.split('/');
  const p = path.split('/');
  return (
    t.length === p.length &&
    t.every((seg, i) => (/^\{\w+\}$/.test(seg) ? p[i] !== '' : seg === p[i]))
  );
}

export function findEndpoint(method: string, path: string): PublishedEndpoint | undefined {
  return PUBLISHED_ENDPOINTS.find((e) => e.method === method && matchesPath(e.path, path));
}

/**
 * A query string as the published parameters see it: repeatable parameters as arrays,
 * `metadata[key]=value` gathered into `metadata`, a single parameter given twice as an array
 * (which then fails its string schema, as it should).
 */
export function queryObject(query: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    const meta = /^metadata\[(.+)\]$/.exec(key);
    if (meta?.[1]) {
      const m = (out.metadata ?? {}) as Record<string, unknown>;
      m[meta[1]] = values.length === 1 ? values[0] : values;
      out.metadata = m;
    } else {
      out[key] = REPEATABLE_LIST_PARAMS.has(key) || values.length > 1 ? values : values[0];
    }
  }
  return out;
}

/** Every way the exchange differs from the published description, `METHOD path: ...`. */
export function checkExchange(x: RecordedExchange): string[] {
  const where = `${x.method} ${x.path}`;
  const endpoint = findEndpoint(x.method, x.path);
  if (!endpoint) return [`${where}: not an endpoint the published description has`];
  const issues: string[] = [];
  const add = (what: string, found: string[]) =>
    issues.push(...found.map((i) => `${where} ${what} ${i}`));
  if (endpoint.request === 'none' || (endpoint.request === undefined && x.method === 'GET')) {
    if (x.body !== undefined) issues.push(`${where}: sends a body the endpoint does not take`);
  } else if (endpoint.request) {
    add('request', checkPublished(endpoint.request, x.body));
  }
  const query = queryObject(x.query);
  if (endpoint.query) add('query', checkPublished(endpoint.query, query));
  else if (Object.keys(query).length > 0) add('query', checkPublished(z.strictObject({}), query));
  if (x.status >= 200 && x.status < 300) {
    if (endpoint.answer) add('answer', checkPublished(endpoint.answer, x.answer));
  } else {
    add(`answer ${x.status}`, checkPublished('Error', x.answer));
  }
  return issues;
}
