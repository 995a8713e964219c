/**
 * A local Agent Run Service (docs/agent-api.md) for development, demos, tests and
 * benchmarks: `startEmulator()` listens on loopback and returns handles to drive it.
 */
import { spend as spendUsage } from './model/usage.js';
import type { AddressInfo } from 'node:net';
import { createEmulatorCore } from './model/emulator-core.js';
import { createFaults } from './model/faults.js';
import { createRequestCounters } from './http/request-counters.js';
import { validateCreateRequest } from './http/request-validation.js';
import { createRunStore } from './model/run-store.js';
import { toRunItem as wireItem } from './model/run-item.js';
import { adminRoutes } from './http/routes-admin.js';
import { catalogueAdminRoutes } from './http/routes-catalogue-admin.js';
import { factoryRoutes } from './http/routes-factories.js';
import { catalogueRoutes } from './http/routes-catalogue.js';
import { createCatalogue } from './model/catalogue.js';
import { runRoutes } from './http/routes-runs.js';
import { progressRoutes } from './http/routes-progress.js';
import { artifactRoutes } from './http/routes-artifacts.js';
import { API_PREFIX, createEmulatorServer } from './http/server.js';
import { sessionRoutes } from './http/session-page.js';
import { createStateMachine } from './model/state-machine.js';
import type { Emulator, EmulatorFactory, EmulatorOptions, EmulatorTimings } from './model/types.js';

export type * from './model/types.js';
export type * from './model/catalogue.js';
export { DEFAULT_ENVIRONMENTS, DEFAULT_MODELS } from './model/catalogue.js';

export const DEFAULT_TIMINGS: EmulatorTimings = {
  queuedMs: 800,
  pendingMs: 700,
  claimedMs: 500,
  runMs: 3000,
  slowRunMs: 20_000,
};

/**
 * Timings for tests, `--fast` and EMULATOR_FAST: a run ends 0.24 s after it was created
 * (DEFAULT_TIMINGS: 5 s).
 */
export const FAST_TIMINGS: EmulatorTimings = {
  queuedMs: 40,
  pendingMs: 40,
  claimedMs: 40,
  runMs: 120,
  slowRunMs: 2000,
};

export const DEFAULT_FACTORIES: EmulatorFactory[] = [
  { uid: 'factory-docs', name: 'Docs Factory', alias: 'docs' },
  { uid: 'factory-triage', name: 'Triage Factory', alias: 'triage' },
];

const DEFAULT_TICK_MS = 25;

/** A detached copy: callers may keep or change it without touching the store. */
const toRunItem: typeof wireItem = (run, url) => structuredClone(wireItem(run, url));

function checkOptions(timings: EmulatorTimings, tickMs: number | undefined): void {
  for (const [name, ms] of Object.entries(timings)) {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(`timings.${name} must be >= 0, got ${ms}`);
  }
  if (tickMs !== undefined && !(Number.isFinite(tickMs) && tickMs >= 1)) {
    throw new RangeError(`tickMs must be >= 1, got ${tickMs}`);
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const clock = options.clock ?? { now: () => Date.now() };
  const apiKey = options.apiKey ?? 'dev-key';
  const log = options.log ?? (() => {});
  const timings = { ...DEFAULT_TIMINGS, ...options.timings };
  checkOptions(timings, options.tickMs);
  const factories = (options.factories ?? DEFAULT_FACTORIES).map((f) => ({ ...f }));
  let url = '';

  const store = createRunStore();
  const machine = createStateMachine({
    store,
    timings,
    url: () => url,
    ...(options.log
      ? { onTransition: (run, from) => log(`run ${run.runId} ${from} -> ${run.state}`) }
      : {}),
  });
  const core = createEmulatorCore({
    store,
    machine,
    factories,
    clock,
    url: () => url,
    ...(options.phrases ? { phrases: options.phrases } : {}),
  });
  const faults = createFaults();
  const requests = createRequestCounters();
  const catalogue = createCatalogue(options.catalogue);
  const startedAt = clock.now();
  const server = createEmulatorServer({
    apiKey,
    faults,
    requests,
    log,
    contractRoutes: [
      ...runRoutes(core, faults).filter(
        (r) => options.interrupt !== false || !r.path.endsWith('/interrupt'),
      ),
      ...factoryRoutes(core),
      ...catalogueRoutes(catalogue, startedAt),
      ...progressRoutes(core, timings),
      ...artifactRoutes(core),
    ],
    adminRoutes: [
      ...adminRoutes({ core, faults, requests, startedAt }),
      ...catalogueAdminRoutes(catalogue),
    ],
    publicRoutes: sessionRoutes(core),
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  url = `http://${urlHost}:${port}`;
  const timer = setInterval(() => {
    try {
      core.now();
    } catch (err) {
      log(`tick failed: ${String(err)}`);
    }
  }, options.tickMs ?? DEFAULT_TICK_MS);
  timer.unref();

  const item = (run: Parameters<typeof toRunItem>[0] | undefined) =>
    run ? toRunItem(run, url) : undefined;
  let closed: Promise<void> | undefined;

  return {
    url,
    baseUrl: url + API_PREFIX,
    apiKey,
    close() {
      closed ??= new Promise<void>((resolve) => {
        clearInterval(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
    runs: {
      get: (runId) => (core.now(), item(store.get(runId))),
      all: () => (core.now(), [...store.all()].map((r) => toRunItem(r, url))),
      count: () => store.count(),
    },
    followups: store.followups,
    requests,
    history: (runId) => (core.now(), (store.get(runId)?.history ?? []).map((h) => ({ ...h }))),
    faults,
    seedRuns: (n, opts) => core.seed(n, opts),
    createRunDirect: (req, opts) =>
      toRunItem(core.createRun(validateCreateRequest(req), opts), url),
    advance: (runId, state) => item(core.advance(runId, state)),
    setState: (runId, state) => item(core.setState(runId, state)),
    tick: () => void core.now(),
    failSetup: (runId, debugWindowMs) => item(core.failSetup(runId, debugWindowMs)),
    spend(runId, usd) {
      const at = core.now();
      const run = store.get(runId);
      if (run) spendUsage(run, usd, at);
      return item(run);
    },
    catalogue,
  };
}
