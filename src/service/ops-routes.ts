/**
 * The operator's routes: /healthz (the process answers), /readyz (the database answers and
 * the workers run; 503 otherwise) and /metrics (Prometheus text format; with a token set,
 * only for requests that carry it as a bearer token, 401 otherwise).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { reply } from './http-server.js';
import type { Route } from './http-server.js';

export interface ReadinessCheck {
  name: string;
  /** Resolves when healthy; throws (or returns a reason string) when not. */
  check(): Promise<void | string>;
}

export interface OpsRoutesOptions {
  checks: readonly ReadinessCheck[];
  metrics: () => Promise<{ contentType: string; body: string }>;
  /** Per-check time limit; default 2 s. */
  checkTimeoutMs?: number;
  /** Set: /metrics needs `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries `token` as its bearer token (compared in constant time). */
export function hasBearer(req: IncomingMessage, token: string): boolean {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

export function opsRoutes(options: OpsRoutesOptions): Route[] {
  const timeoutMs = options.checkTimeoutMs ?? 2_000;
  return [
    {
      path: '/healthz',
      methods: ['GET', 'HEAD'],
      handler: (_req, res) => reply(res, 200, { status: 'ok' }),
    },
    {
      path: '/readyz',
      methods: ['GET', 'HEAD'],
      handler: async (_req, res) => {
        const results = await Promise.all(
          options.checks.map(async (c) => [c.name, await runCheck(c, timeoutMs)] as const),
        );
        const ready = results.every(([, r]) => r === 'ok');
        reply(res, ready ? 200 : 503, {
          status: ready ? 'ready' : 'unavailable',
          checks: Object.fromEntries(results),
        });
      },
    },
    {
      path: '/metrics',
      methods: ['GET'],
      handler: async (req, res) => {
        const token = options.metricsToken;
        if (token !== undefined && !hasBearer(req, token))
          return reply(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
        const { contentType, body } = await options.metrics();
        res.writeHead(200, { 'content-type': contentType });
        res.end(body);
      },
    },
  ];
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    const outcome = await Promise.race([
      check.check().then((reason) => (typeof reason === 'string' ? reason : 'ok')),
      timeout,
    ]);
    return outcome;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    clearTimeout(timer);
  }
}
