/**
 * The admin surface under /_emulator (bearer key required), so another process (benchmarks,
 * crash tests) can inject faults, force states, seed runs and read counters.
 */
import { z } from 'zod';
import { AgentConfigSchema } from '../../agent/schemas.js';
import type { EmulatorCore } from '../model/emulator-core.js';
import type { Faults } from '../model/faults.js';
import type { Route } from './http-io.js';
import { EmulatorProblem, REFUSAL_CODES } from './problem.js';
import { toRunItem } from '../model/run-item.js';
import { parseBody } from './request-validation.js';
import type { RequestCounters } from '../model/types.js';

const count = z.number().int().min(0).max(1_000_000);
const FaultsBody = z.strictObject({
  failNext: count.optional(),
  status: z.number().int().min(400).max(599).optional(),
  retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
  route: z.string().optional(),
  /** With failNext: handle the request, then answer the error (a 429 that still queues). */
  processed: z.boolean().optional(),
  /** With failNext: the service's error code of the answer (e.g. 403 `insufficient_credits`). */
  errorCode: z.enum(REFUSAL_CODES).optional(),
  /** With failNext and `external_authentication_required`: the provider and its link. */
  provider: z.string().min(1).optional(),
  authUrl: z.url().optional(),
  dropNext: count.optional(),
  dropAfterProcessing: z.boolean().optional(),
  latencyMs: z.number().min(0).max(600_000).optional(),
  atCapacityNext: count.optional(),
  /** Serve this run off the published description (the patch is merged into its item). */
  offSpec: z
    .strictObject({ run_id: z.string().min(1), patch: z.record(z.string(), z.unknown()) })
    .optional(),
  metadataFilterUnavailable: z.boolean().optional(),
  clear: z.boolean().optional(),
});
const StateBody = z.strictObject({ state: z.string().min(1) });
const SetupFailureBody = z.strictObject({
  debug_window_seconds: z.number().positive().max(86_400),
});
/** A child of the run, as an orchestrating agent would start it (it inherits the metadata). */
const ChildBody = z.strictObject({
  prompt: z.string().min(1).optional(),
  state: z.string().min(1).optional(),
});
const AdvanceBody = z.strictObject({ state: z.string().min(1).optional() });
const SeedBody = z.strictObject({
  count: z.number().int().min(1).max(100_000),
  prompt: z.string().min(1).optional(),
  state: z.string().min(1).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  config: AgentConfigSchema.optional(),
  spread_ms: z.number().int().min(0).optional(),
  manual: z.boolean().optional(),
});

export interface AdminDeps {
  core: EmulatorCore;
  faults: Faults;
  requests: RequestCounters;
  startedAt: number;
}

export function adminRoutes({ core, faults, requests, startedAt }: AdminDeps): Route[] {
  const run = (id: string | undefined) => {
    const found = id === undefined ? undefined : core.store.get(id);
    if (!found) throw new EmulatorProblem(404, 'resource_not_found', `no run with id ${id ?? ''}`);
    return found;
  };
  const item = (id: string | undefined) => ({ status: 200, json: toRunItem(run(id), core.url()) });
  /** A POST that changes one run by its body (`absent`: the body taken when none came). */
  const runChange = <T>(
    action: string,
    schema: z.ZodType<T>,
    change: (runId: string, body: T) => void,
    absent?: object,
  ): Route => ({
    method: 'POST',
    path: `/runs/:id/${action}`,
    handle(req) {
      change(run(req.params.id).runId, parseBody(schema, req.body ?? absent));
      return item(req.params.id);
    },
  });
  return [
    {
      method: 'GET',
      path: '/stats',
      handle() {
        const now = core.now();
        return {
          status: 200,
          json: {
            started_at: new Date(startedAt).toISOString(),
            now: new Date(now).toISOString(),
            requests: requests.snapshot(),
            requests_total: requests.total(),
            runs: { total: core.store.count(), by_state: core.store.countByState() },
            followups: core.store.followups.length,
          },
        };
      },
    },
    {
      method: 'POST',
      path: '/stats/reset',
      handle: () => (requests.reset(), { status: 200, json: {} }),
    },
    { method: 'GET', path: '/faults', handle: () => ({ status: 200, json: faults.snapshot() }) },
    {
      method: 'DELETE',
      path: '/faults',
      handle: () => (faults.clear(), { status: 200, json: faults.snapshot() }),
    },
    {
      method: 'POST',
      path: '/faults',
      handle(req) {
        const b = parseBody(FaultsBody, req.body);
        if (b.clear) faults.clear();
        if (b.failNext !== undefined) {
          faults.failNext(b.failNext, b.status ?? 503, {
            ...(b.retryAfterSeconds !== undefined
              ? { retryAfterSeconds: b.retryAfterSeconds }
              : {}),
            ...(b.route ? { route: b.route } : {}),
            ...(b.processed ? { processed: true } : {}),
            ...(b.errorCode ? { errorCode: b.errorCode } : {}),
            ...(b.provider ? { provider: b.provider } : {}),
            ...(b.authUrl ? { authUrl: b.authUrl } : {}),
          });
        }
        if (b.dropNext !== undefined) {
          faults.dropNext(b.dropNext, {
            afterProcessing: b.dropAfterProcessing ?? false,
            ...(b.route ? { route: b.route } : {}),
          });
        }
        if (b.latencyMs !== undefined) faults.setLatency(b.latencyMs);
        if (b.atCapacityNext !== undefined) faults.atCapacityNext(b.atCapacityNext);
        if (b.offSpec) faults.offSpec(b.offSpec.run_id, b.offSpec.patch);
        if (b.metadataFilterUnavailable !== undefined) {
          faults.metadataFilterUnavailable(b.metadataFilterUnavailable);
        }
        return { status: 200, json: faults.snapshot() };
      },
    },
    {
      method: 'GET',
      path: '/followups',
      handle(req) {
        const runId = req.query.get('run_id');
        const all = core.store.followups;
        return {
          status: 200,
          json: { followups: runId ? all.filter((f) => f.runId === runId) : all },
        };
      },
    },
    {
      method: 'GET',
      path: '/runs/:id/history',
      handle(req) {
        core.now();
        const r = run(req.params.id);
        return { status: 200, json: { run_id: r.runId, history: r.history } };
      },
    },
    runChange('advance', AdvanceBody, (id, b) => core.advance(id, b.state), {}),
    runChange('state', StateBody, (id, b) => core.setState(id, b.state)),
    runChange('setup-failure', SetupFailureBody, (id, b) =>
      core.failSetup(id, b.debug_window_seconds * 1000),
    ),
    {
      method: 'POST',
      path: '/runs/:id/children',
      handle(req) {
        const b = parseBody(ChildBody, req.body ?? {});
        const parent = run(req.params.id);
        const child = core.createRun(
          { prompt: b.prompt ?? 'Child task', parent_run_id: parent.runId },
          b.state ? { state: b.state, manual: true } : {},
        );
        return { status: 200, json: toRunItem(child, core.url()) };
      },
    },
    {
      method: 'POST',
      path: '/seed',
      handle(req) {
        const b = parseBody(SeedBody, req.body);
        const ids = core.seed(b.count, {
          ...(b.prompt ? { prompt: b.prompt } : {}),
          ...(b.state ? { state: b.state } : {}),
          ...(b.metadata ? { metadata: b.metadata } : {}),
          ...(b.config ? { config: b.config } : {}),
          ...(b.spread_ms !== undefined ? { spreadMs: b.spread_ms } : {}),
          ...(b.manual !== undefined ? { manual: b.manual } : {}),
        });
        return { status: 200, json: { created: ids.length, run_ids: ids } };
      },
    },
  ];
}
