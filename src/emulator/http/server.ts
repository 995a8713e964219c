/**
 * The emulator's node:http server: /api/v1 (the contract: counters, faults, bearer auth),
 * /_emulator (admin, bearer auth) and /sessions (public HTML). Every failure becomes a
 * problem answer; nothing a client sends can crash the process.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Faults } from '../model/faults.js';
import {
  matchRoute,
  problemResult,
  readJsonBody,
  writeResult,
  type Route,
  type RouteResult,
} from './http-io.js';
import { EmulatorProblem } from './problem.js';
import type { MutableRequestCounters } from './request-counters.js';

export const API_PREFIX = '/api/v1';
export const ADMIN_PREFIX = '/_emulator';

export interface ServerDeps {
  apiKey: string;
  faults: Faults;
  requests: MutableRequestCounters;
  contractRoutes: Route[];
  adminRoutes: Route[];
  publicRoutes: Route[];
  log: (line: string) => void;
}

type Outcome = RouteResult | 'dropped';

const digest = (s: string) => createHash('sha256').update(s).digest();

function under(path: string, prefix: string): string | undefined {
  if (path === prefix) return '/';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
}

export function createEmulatorServer(deps: ServerDeps): Server {
  const keyDigest = digest(deps.apiKey);

  function authenticate(req: IncomingMessage): void {
    const header = req.headers.authorization;
    const m = header ? /^Bearer\s+(\S.*)$/i.exec(header) : null;
    if (!m?.[1])
      throw new EmulatorProblem(401, 'authentication_required', 'missing bearer API key', {
        retryable: false,
      });
    if (!timingSafeEqual(digest(m[1].trim()), keyDigest)) {
      throw new EmulatorProblem(401, 'authentication_required', 'the API key is not valid', {
        retryable: false,
      });
    }
  }

  async function run(routes: Route[], req: IncomingMessage, path: string, query: URLSearchParams) {
    const method = req.method ?? 'GET';
    const { match, allowed } = matchRoute(routes, method, path);
    if (!match) {
      if (allowed.length > 0) {
        throw new EmulatorProblem(405, 'method_not_allowed', `use ${allowed.join(' or ')}`, {
          retryable: false,
        });
      }
      throw new EmulatorProblem(404, 'resource_not_found', `no route for ${method} ${path}`, {
        retryable: false,
      });
    }
    const body = method === 'POST' ? await readJsonBody(req) : undefined;
    return match.route.handle({ params: match.params, query, body });
  }

  async function contract(
    req: IncomingMessage,
    sub: string,
    full: string,
    query: URLSearchParams,
  ): Promise<Outcome> {
    const method = req.method ?? 'GET';
    const { match } = matchRoute(deps.contractRoutes, method, sub);
    const template = match ? `${method} ${match.route.path}` : 'unmatched';
    deps.requests.inc(template);
    const latency = deps.faults.latencyMs();
    if (latency > 0) await sleep(latency);
    const fault = deps.faults.take(template);
    if (fault?.kind === 'fail' && !fault.processed) return problemResult(fault.problem, full);
    if (fault?.kind === 'drop' && !fault.afterProcessing) return 'dropped';
    let result: RouteResult;
    try {
      authenticate(req);
      result = await run(deps.contractRoutes, req, sub, query);
    } catch (err) {
      if (!(err instanceof EmulatorProblem)) throw err;
      result = problemResult(err, full);
    }
    if (fault?.kind === 'fail') return problemResult(fault.problem, full);
    return fault?.kind === 'drop' ? 'dropped' : result;
  }

  async function dispatch(
    req: IncomingMessage,
    path: string,
    query: URLSearchParams,
  ): Promise<Outcome> {
    const api = under(path, API_PREFIX);
    if (api !== undefined) return contract(req, api, path, query);
    const admin = under(path, ADMIN_PREFIX);
    if (admin !== undefined) {
      authenticate(req);
      return run(deps.adminRoutes, req, admin, query);
    }
    return run(deps.publicRoutes, req, path, query);
  }

  return createServer((req, res) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    let path = '/';
    void (async () => {
      let outcome: Outcome;
      try {
        const url = new URL(req.url ?? '/', 'http://emulator.invalid');
        path = url.pathname;
        outcome = await dispatch(req, path, url.searchParams);
      } catch (err) {
        if (!(err instanceof EmulatorProblem)) {
          deps.log(
            `internal error on ${method} ${path}: ${err instanceof Error ? err.stack : String(err)}`,
          );
        }
        const problem =
          err instanceof EmulatorProblem
            ? err
            : new EmulatorProblem(500, 'internal_error', 'unexpected emulator failure');
        outcome = problemResult(problem, path);
      }
      const ms = (performance.now() - started).toFixed(1);
      if (outcome === 'dropped') {
        req.socket.destroy();
        deps.log(`${method} ${path} dropped (injected) ${ms}ms`);
        return;
      }
      if (!res.headersSent && !res.destroyed) writeResult(res, outcome);
      deps.log(`${method} ${path} ${outcome.status} ${ms}ms`);
    })().catch((err: unknown) => {
      deps.log(`failed to answer ${method} ${path}: ${String(err)}`);
      res.destroy();
    });
  }).on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
}
