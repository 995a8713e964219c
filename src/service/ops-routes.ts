/**
 * The operator's routes: /healthz (the process answers), /readyz (the database answers and
 * the workers run; 503 otherwise) and /metrics (Prometheus text format).
 */
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
      handler: async (_req, res) => {
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
