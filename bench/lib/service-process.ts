/**
 * The service itself as a child process: `node --import tsx src/cli.ts start` (exactly what
 * `npm start` runs), or a compiled entry, configured by environment like any deployment:
 * the emulator as its Agent Run Service and the fake Slack/GitHub APIs.
 */
import { join } from 'node:path';
import type { BackendUrls } from '../children/backends-api.js';
import { RUNTIME_NODE_OPTIONS } from '../../src/service/node-options.js';
import { freePort, spawnLogged, stopChild, TSX } from './processes.js';
import type { ServiceProcess } from './processes.js';
import { BENCH_SECRETS } from './secrets.js';

export interface ServiceOptions {
  backends: BackendUrls;
  workDir: string;
  name: string;
  databasePath: string;
  trackerMode?: 'batch' | 'per-run';
  pollIntervalMs?: number;
  logLevel: string;
  /** Directory for --cpu-prof output; undefined: no profile. */
  profileDir?: string;
  /**
   * Another entry instead of `tsx src/cli.ts start`: a compiled `dist/cli.js` (run with
   * plain node) or a bench entry in TypeScript (run with tsx, no `start` argument).
   */
  entry?: string;
  /** Extra node flags (diagnostics, e.g. an `--import` preload). */
  nodeArgs?: string[];
  /** PROGRESS_READS_PER_MINUTE (undefined: the service's default). */
  progressReadsPerMinute?: number;
  /** More configuration (e.g. a platform the defaults leave off). */
  env?: Record<string, string>;
  /**
   * Another source tree to run the service from (its own `src/`, its `node_modules`): the
   * side of a same-run A/B without a change (`npm run bench -- floor --baseline DIR`).
   */
  root?: string;
}

export async function startServiceProcess(options: ServiceOptions): Promise<ServiceProcess> {
  const port = await freePort();
  const b = options.backends;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: options.databasePath,
    AGENT_API_URL: b.agentBaseUrl,
    AGENT_API_KEY: b.agentKey,
    SLACK_SIGNING_SECRET: BENCH_SECRETS.slackSigningSecret,
    SLACK_BOT_TOKEN: BENCH_SECRETS.slackBotToken,
    SLACK_API_URL: b.slackApiUrl,
    GITHUB_WEBHOOK_SECRET: BENCH_SECRETS.githubWebhookSecret,
    GITHUB_TOKEN: BENCH_SECRETS.githubToken,
    GITHUB_API_URL: b.githubApiUrl,
    POLL_INTERVAL_MS: String(options.pollIntervalMs ?? 2000),
    TRACKER_MODE: options.trackerMode ?? 'batch',
    LOG_LEVEL: options.logLevel,
    LOG_PRETTY: '0',
    SHUTDOWN_TIMEOUT_MS: '3000',
    ...(options.progressReadsPerMinute !== undefined
      ? { PROGRESS_READS_PER_MINUTE: String(options.progressReadsPerMinute) }
      : {}),
    // Passed through so the ingress-first gate can be measured side by side with it off
    // (`INGRESS_BURST_PER_SECOND=0 npm run bench -- ingest`; docs/decisions/acknowledgement-latency.md).
    ...(process.env.INGRESS_BURST_PER_SECOND !== undefined
      ? { INGRESS_BURST_PER_SECOND: process.env.INGRESS_BURST_PER_SECOND }
      : {}),
    ...options.env,
    // The compiled runner stands for the container: it gets the container's node options.
    ...(options.entry?.endsWith('.js') ? { NODE_OPTIONS: RUNTIME_NODE_OPTIONS } : {}),
  };
  const profile = options.profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${join(options.profileDir, options.name)}`]
    : [];
  const logFile = join(options.workDir, `${options.name}.log`);
  const spawnedAt = performance.now();
  const program = !options.entry
    ? [...TSX, 'src/cli.ts', 'start']
    : options.entry.endsWith('.ts')
      ? [...TSX, options.entry]
      : [options.entry, 'start'];
  const child = spawnLogged(
    [...profile, ...(options.nodeArgs ?? []), ...program],
    env,
    logFile,
    options.root,
  );
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    pid: child.pid ?? 0,
    child,
    spawnedAt,
    logFile,
    stop: () => stopChild(child),
  };
}
