/**
 * The composition root: config -> store -> agent client (the real service, or the embedded
 * emulator) -> notifiers -> engine -> ingress -> one HTTP server. `startService` is what the
 * CLI, the demo, the crash tests and the benchmarks embed; `stop()` drains in order.
 */
import { randomUUID } from 'node:crypto';
import { StartupError } from './service/agent-key-check.js';
import type { Config } from './config/load.js';
import { DEFAULT_BOT_HANDLE } from './core/command/parse-command.js';
import { connectAgent } from './service/connect-agent.js';
import { systemClock } from './core/ports/index.js';
import type {
  AgentService,
  Clock,
  Logger,
  Random,
  Store,
  TriggerSink,
} from './core/ports/index.js';
import type { Emulator, EmulatorFactory, EmulatorTimings } from './emulator/index.js';
import { silentLogger } from './service/logger.js';
import { createMetrics } from './service/metrics.js';
import type { RuntimeMetrics } from './service/metrics.js';
import { opsRoutes } from './service/ops-routes.js';
import { commandWord, createPlatforms } from './service/platforms/index.js';
import type { PlatformOverrides } from './service/platforms/index.js';
import { PlatformStartError } from './platform/contract.js';
import { createEngine } from './runs/engine.js';
import { createRetention } from './runs/workers/retention.js';
import type { Engine } from './runs/engine.js';
import type { EngineOptions } from './runs/runs-deps.js';
import { createServer } from './service/http-server.js';
import { createInboxSink } from './service/inbox-sink.js';
import type { Route } from './service/http-server.js';
import { describeStartup, listenFailure } from './service/startup-report.js';
import { openStore } from './store/index.js';
import { createConsole, localAdminUrl, platformLookups } from './console/index.js';
import { queueGauges } from './service/queue-gauges.js';
import { createDatabaseClock } from './service/database-clock.js';

export const systemRandom: Random = { id: () => randomUUID(), float: () => Math.random() };

export interface StartServiceOptions {
  logger?: Logger;
  clock?: Clock;
  random?: Random;
  /** Embedded emulator: timings (default: EMULATOR_FAST's choice) and factories. */
  emulatorTimings?: Partial<EmulatorTimings>;
  emulatorFactories?: EmulatorFactory[];
  /** A metrics instance to share (benchmarks); default a fresh registry. */
  metrics?: RuntimeMetrics;
  /** Engine knobs beyond the config (tests, demo: faster polling). */
  engineOptions?: Partial<EngineOptions>;
  platforms?: PlatformOverrides;
  /** Log the start-up block (default true). */
  announce?: boolean;
}

export interface RunningService {
  /** The bound URL, e.g. `http://127.0.0.1:3000` (port 0 resolved). */
  url: string;
  port: number;
  /** The Agent Run Service base URL in use (the emulator's when embedded). */
  agentUrl: string;
  emulator?: Emulator;
  agent: AgentService;
  store: Store;
  engine: Engine;
  /** Where the ingress writes triggers (the inbox). */
  sink: TriggerSink;
  metrics: RuntimeMetrics;
  /** The operator console, when on: its address and the one-time local admin link. */
  console?: { url: string; adminLink?: string };
  /** Stop accepting, let in-flight triggers and deliveries finish (bounded), close. Idempotent. */
  stop(): Promise<void>;
}

/**
 * SQLite is one replica by design: at start-up no other process can hold a claim, so the
 * work a crashed process had claimed is taken again now instead of after its lease. Never
 * with PostgreSQL, whose queues live replicas share.
 */
async function releaseLeftLeases(store: Store, clock: Clock, logger: Logger): Promise<void> {
  if (store.shared) return;
  const released = await store.releaseLeases(clock.now());
  if (released.inbox + released.outbox > 0) {
    logger.info(released, 'released the claims a previous process left');
  }
}

/**
 * Tell the engine about each request to a route a platform waits on (its ingress-first gate
 * counts them); the other routes (install pages) pass through unchanged.
 */
function reportingArrival(engine: Engine): (route: Route) => Route {
  return (route) =>
    route.acknowledges
      ? {
          ...route,
          handler: (req, res, body) => {
            engine.noteArrival();
            return route.handler(req, res, body);
          },
        }
      : route;
}

export async function startService(
  config: Config,
  options: StartServiceOptions = {},
): Promise<RunningService> {
  const logger = options.logger ?? silentLogger();
  const localClock = options.clock ?? systemClock;
  const metrics = options.metrics ?? createMetrics();
  const cleanup: (() => Promise<unknown>)[] = [];
  const undo = async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  };

  try {
    const store = await openStore({ databaseUrl: config.databaseUrl, logger }).catch((err) => {
      const detail = err instanceof Error ? err.message : String(err);
      throw new StartupError('database_unavailable', `cannot open the database: ${detail}`, {
        cause: err,
      });
    });
    cleanup.push(() => store.close());
    // Replicas sharing the database take their time from it (database-clock.ts).
    const databaseClock = store.shared
      ? await createDatabaseClock({
          local: localClock,
          databaseTime: store.databaseTime.bind(store),
          logger,
        })
      : undefined;
    if (databaseClock) cleanup.push(async () => databaseClock.close());
    const clock: Clock = databaseClock ?? localClock;
    await releaseLeftLeases(store, clock, logger);
    metrics.gaugeSource('outbox_depth', () => store.outboxQueue.depth());
    metrics.gaugeSource('inbox_depth', () => store.inboxQueue.depth());
    queueGauges(store, clock, metrics);

    const { agent, agentUrl, emulator, catalogue } = await connectAgent(config, {
      timings: options.emulatorTimings,
      factories: options.emulatorFactories,
      logger,
      clock,
      onRequest: metrics.agentRequestHook,
    });
    if (emulator) cleanup.push(() => emulator.close());

    const platforms = await createPlatforms({
      config,
      store,
      agent,
      catalogue,
      clock,
      logger,
      metrics: metrics.metrics,
      overrides: options.platforms,
    });
    const engine = createEngine({
      store,
      agent,
      notifiers: platforms.notifiers,
      capabilities: platforms.capabilities,
      ...(platforms.keepAliveMs === undefined ? {} : { keepAliveMs: platforms.keepAliveMs }),
      ...(platforms.access ? { repoAccess: platforms.access } : {}),
      catalogue,
      clock,
      random: options.random ?? systemRandom,
      logger,
      metrics: metrics.metrics,
      options: {
        botHandle: config.github?.botHandle ?? DEFAULT_BOT_HANDLE,
        botHandles: {
          ...(config.jira ? { jira: config.jira.botHandle } : {}),
          ...(config.teams ? { teams: config.teams.botHandle } : {}),
        },
        commandWord: commandWord(config),
        pollIntervalMs: config.pollIntervalMs,
        trackerMode: config.trackerMode,
        maxPromptChars: config.maxPromptChars,
        drainMs: config.shutdownTimeoutMs,
        leaseMs: config.leaseMs,
        burstPerSecond: config.ingressBurstPerSecond,
        progressReadsPerMinute: config.progressReadsPerMinute,
        ...options.engineOptions,
      },
    });
    metrics.gaugeSource('claiming_paused_seconds', async () => engine.claimingPausedMs() / 1000);
    const sink = createInboxSink({
      store,
      clock,
      metrics: metrics.metrics,
      onAccepted: () => engine.inbox.wake(),
    });
    const platformRoutes = platforms.routes((platform) => ({
      sink,
      wakeOutbox: () => engine.outbox.wake(platform),
    }));

    let running = false;
    let listeningUrl = '';
    const operatorConsole = config.console
      ? createConsole({
          config: config.console,
          store,
          agent,
          logger,
          clock,
          metrics: metrics.metrics,
          wake: { inbox: () => engine.inbox.wake(), outbox: () => engine.outbox.wake() },
          listeningUrl: () => listeningUrl,
          ...platformLookups(
            config,
            platforms.modules.some((m) => m.directory) ? platforms.directory : undefined,
          ),
        })
      : undefined;
    const routes: Route[] = [
      ...opsRoutes({
        metrics: metrics.render,
        ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
        checks: [
          { name: 'database', check: () => store.ping() },
          { name: 'workers', check: async () => (running ? undefined : 'stopped') },
        ],
      }),
      ...platformRoutes.map(reportingArrival(engine)),
      ...(operatorConsole ? [operatorConsole.route] : []),
    ];
    const server = createServer({
      routes,
      logger,
      now: () => clock.now(),
      onRequest(info) {
        metrics.httpRequestHook(info);
        if (info.acknowledges)
          metrics.metrics.observe('trigger_to_ack_seconds', info.durationMs / 1000, {
            platform: info.acknowledges,
          });
      },
    });

    cleanup.push(() => platforms.close());
    await platforms.start().catch((err: unknown) => {
      if (err instanceof PlatformStartError)
        throw new StartupError(err.code, err.message, { cause: err });
      throw err;
    });
    cleanup.push(() => platforms.stop());
    const bound = await server.listen(config.port, config.host).catch((err: unknown) => {
      throw new StartupError('listen_failed', listenFailure(config.host, config.port, err), {
        cause: err,
      });
    });
    listeningUrl = bound.url;
    cleanup.push(() => server.close(config.shutdownTimeoutMs));
    if (operatorConsole) cleanup.push(async () => operatorConsole.close());
    engine.start();
    const retention =
      config.retentionDays > 0 || config.runRetentionDays > 0
        ? createRetention({
            store,
            clock,
            logger,
            ...(config.retentionDays > 0 ? { keepMs: config.retentionDays * 86_400_000 } : {}),
            ...(config.runRetentionDays > 0
              ? { runsKeepMs: config.runRetentionDays * 86_400_000 }
              : {}),
          })
        : undefined;
    retention?.start();
    cleanup.push(async () => retention?.stop());
    running = true;

    if (options.announce !== false) {
      const report = describeStartup(config, { url: bound.url, host: config.host, agentUrl });
      logger.info(report.fields, report.lines.join('\n'));
    }
    const consoleInfo = operatorConsole
      ? {
          url: `${config.console?.publicUrl ?? bound.url}/console`,
          ...(operatorConsole.adminToken
            ? { adminLink: localAdminUrl(bound.url, operatorConsole.adminToken) }
            : {}),
        }
      : undefined;
    if (consoleInfo && options.announce !== false) {
      logger.info(
        { console: consoleInfo.url },
        consoleInfo.adminLink
          ? `operator console: open ${consoleInfo.adminLink} (one use, from this machine only)`
          : `operator console at ${consoleInfo.url}`,
      );
    }

    let stopping: Promise<void> | undefined;
    return {
      ...bound,
      agentUrl,
      emulator,
      agent,
      store,
      engine,
      sink,
      metrics,
      ...(consoleInfo ? { console: consoleInfo } : {}),
      stop() {
        stopping ??= (async () => {
          running = false;
          cleanup.length = 0;
          // Each phase runs even when an earlier one failed: the database always closes.
          const phase = async (name: string, step: () => Promise<unknown> | undefined) => {
            try {
              await step();
            } catch (err) {
              logger.warn({ err, phase: name }, `shutdown: ${name} failed`);
            }
          };
          // Stop accepting: the platforms' own connections (Socket Mode) first, then HTTP
          // (in-flight requests finish; open console pages' event streams end first, or
          // they would hold the drain).
          await phase('platforms', () => platforms.stop());
          await phase('console', async () => operatorConsole?.close());
          await phase('http server', () => server.close(config.shutdownTimeoutMs));
          // Drain: triggers in flight, the tracker, notifications in flight (bounded).
          await phase('workers', () => engine.stop());
          await phase('platforms', () => platforms.close());
          await phase('retention', () => retention?.stop());
          await phase('emulator', () => emulator?.close());
          await phase('database', () => store.close());
        })();
        return stopping;
      },
    };
  } catch (err) {
    await undo();
    throw err;
  }
}
