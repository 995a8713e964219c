#!/usr/bin/env node
/**
 * The `agent-relay` command: start (the default), emulator, migrate, doctor, healthcheck.
 * `main(argv)` returns the exit code; the bin wrapper at the bottom exits with it.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageVersion } from './agent/version.js';
import { StartupError } from './service/agent-key-check.js';
import { ConfigError, loadConfig, readEnvironment } from './config/load.js';
import { createLogger } from './service/logger.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** The environment (default: process.env with an optional .env merged under it). */
  env?: Record<string, string | undefined>;
  isTTY?: boolean;
  /** Resolves when `start` should stop (default: the first SIGTERM or SIGINT). */
  stopSignal?: Promise<string>;
}

const USAGE = `usage: agent-relay [command]

commands:
  start        start the service (default): HTTP server, inbox, tracker, outbox
  emulator     run the local Agent Run Service emulator (--port 8787 --fast --help)
  migrate      apply database migrations and exit
  doctor       check configuration, database, Agent Run Service, Slack and GitHub
  healthcheck  GET /healthz of a running service on PORT (exit 0 when healthy)
  demo         a scripted Slack + GitHub conversation against local fakes (--fast)
  help         this text;  --version  the version

Configuration comes from the environment (and ./.env when present); see "Configuration" in the README.`;

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  const [command = 'start', ...rest] = argv;
  const env = () => io.env ?? readEnvironment();
  switch (command) {
    case 'start':
      return start(io, env());
    case 'emulator': {
      const { runEmulatorCli } = await import('./emulator/cli.js');
      await runEmulatorCli(rest, { out: io.out, err: io.err });
      return 0;
    }
    case 'migrate':
      return migrate(io, env());
    case 'doctor': {
      const { runDoctor } = await import('./service/doctor.js');
      return runDoctor({ env: env(), out: io.out });
    }
    case 'healthcheck':
      return healthcheck(io, env());
    case 'demo': {
      const { runDemo } = await import('./demo/run-demo.js');
      await runDemo({ out: io.out, fast: rest.includes('--fast') });
      return 0;
    }
    case 'help':
    case '--help':
    case '-h':
      io.out(USAGE);
      return 0;
    case 'version':
    case '--version':
    case '-v':
      io.out(packageVersion());
      return 0;
    default:
      io.err(`agent-relay: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

function configOrReport(io: CliIo, env: Record<string, string | undefined>) {
  try {
    return loadConfig(env, { isTTY: io.isTTY ?? process.stdout.isTTY === true });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(err.message);
    io.err('See "Configuration" in the README for every variable, or run `agent-relay doctor`.');
    return undefined;
  }
}

async function start(io: CliIo, env: Record<string, string | undefined>): Promise<number> {
  const config = configOrReport(io, env);
  if (!config) return 1;
  const logger = createLogger(config.log);
  // A stray rejection is a bug to log, not a reason to drop the work in flight.
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled promise rejection'));
  // Listen for signals before starting: a SIGTERM during start-up stops right after it.
  const stopSignal = io.stopSignal ?? firstSignal();
  const { startService } = await import('./main.js');
  let service;
  try {
    service = await startService(config, { logger });
  } catch (err) {
    if (err instanceof StartupError) {
      io.err(`agent-relay: ${err.message}`);
      return 1;
    }
    throw err;
  }
  const signal = await stopSignal;
  logger.info(
    { signal },
    `${signal}: stopping (in-flight work finishes, then the database closes)`,
  );
  await service.stop();
  logger.info({}, 'stopped');
  return 0;
}

function firstSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      // A second signal while draining ends the process at once.
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

async function migrate(io: CliIo, env: Record<string, string | undefined>): Promise<number> {
  const config = configOrReport(io, env);
  if (!config) return 1;
  const { openStore } = await import('./store/index.js');
  const { describeDatabase } = await import('./service/startup-report.js');
  const logger = createLogger(config.log);
  try {
    const store = await openStore({ databaseUrl: config.databaseUrl, logger });
    await store.close();
  } catch (err) {
    io.err(`agent-relay migrate: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  io.out(`migrations applied: ${describeDatabase(config.databaseUrl)}`);
  return 0;
}

async function healthcheck(io: CliIo, env: Record<string, string | undefined>): Promise<number> {
  const config = configOrReport(io, env);
  if (!config) return 1;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}/healthz`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
    io.out(`${url}: ${res.status}`);
    return res.ok ? 0 : 1;
  } catch (err) {
    io.err(`${url}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

function invokedDirectly(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`agent-relay: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
