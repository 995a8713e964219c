#!/usr/bin/env node
/**
 * The `agent-relay` command: start (the default), emulator, migrate, doctor, healthcheck, demo;
 * each answers --help (or -h) with its usage and refuses arguments it does not take (exit 2).
 * `main(argv)` returns the exit code; `runCli(argv)` exits with it.
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

const CONFIGURATION =
  'Configuration comes from the environment (and ./.env when present); see "Configuration" in docs/operating.md.';

const USAGE = `usage: agent-relay [command] [--help]

commands:
  start        start the service (default): HTTP server, inbox, tracker, outbox
  emulator     run the local Agent Run Service emulator (--port 8787 --fast --help)
  migrate      apply database migrations and exit
  doctor       check configuration, database, Agent Run Service, Slack, GitHub, Linear
  healthcheck  GET /healthz of a running service on PORT (exit 0 when healthy)
  demo         a scripted Slack, GitHub and Linear conversation against local fakes (--fast)
  help         this text (\`help <command>\`: that command's);  --version  the version

\`agent-relay <command> --help\` shows what a command does and takes.
${CONFIGURATION}`;

interface Command {
  usage: string;
  /** Boolean flags it takes besides --help/-h, with their meaning. */
  flags?: Record<string, string>;
  /** Options that take a value (`--name VALUE` or `--name=VALUE`), with their meaning. */
  options?: Record<string, string>;
  run(
    io: CliIo,
    env: () => Record<string, string | undefined>,
    flags: Set<string>,
    values: Map<string, string>,
  ): Promise<number>;
}

/** Every command but `emulator`, which parses its own (string-valued) options. */
const COMMANDS: Record<string, Command> = {
  start: {
    usage: `usage: agent-relay start

Starts the service: one HTTP server (Slack events, GitHub webhooks, /healthz, /readyz,
/metrics), the inbox worker, the tracker and the outbox worker, over one database (migrated
first). Runs until SIGTERM or SIGINT, lets in-flight work finish, and exits 0; a second
signal exits at once. Exits 1 with one line when it cannot start. The default command.`,
    run: (io, env) => start(io, env()),
  },
  migrate: {
    usage: `usage: agent-relay migrate [--from DATABASE --to DATABASE]

Applies the database migrations to DATABASE_URL (creating the SQLite file and its directory
if needed) and exits 0; exits 1 when the database cannot be opened. \`start\` applies them too.

With --from and --to (each sqlite:PATH, a file path or postgres://…), copies a deployment's
data instead: both databases are migrated, the target must be empty, and every thread, run,
inbox and outbox item and setting is copied in one transaction. Stop the service first.
Example: agent-relay migrate --from sqlite:./data/agent-relay.db --to postgres://relay@db/relay`,
    options: {
      '--from': 'the database to copy from (with --to)',
      '--to': 'the empty database to copy into (with --from)',
    },
    run: (io, env, _flags, values) => migrate(io, env(), values),
  },
  doctor: {
    usage: `usage: agent-relay doctor

Checks the configuration, the database, the Agent Run Service (reachability and key, or the
embedded emulator), the Slack bot token (auth.test), the GitHub credentials and the Linear
app token, one line each (a platform that is off says how to turn it on). Exits 0 when nothing failed, 1 otherwise. Starts no service.`,
    async run(io, env) {
      const { runDoctor } = await import('./service/doctor.js');
      return runDoctor({ env: env(), out: io.out });
    },
  },
  healthcheck: {
    usage: `usage: agent-relay healthcheck

GET /healthz of the service running on HOST:PORT (127.0.0.1 when HOST is 0.0.0.0 or ::),
with a 3 s limit: exits 0 when it answers 200, 1 otherwise. The container's health check.`,
    run: (io, env) => healthcheck(io, env()),
  },
  demo: {
    usage: `usage: agent-relay demo [--fast]

A scripted Slack, GitHub and Linear conversation (a slash command, a follow-up, a cancel, a
GitHub mention, a label, a factory, a Linear delegation) against the real service, the
emulator and fake Slack, GitHub and Linear APIs, all in this process and on loopback; prints
the transcript and exits 0.`,
    flags: { '--fast': "the emulator's short timings: the whole demo in a few seconds" },
    async run(io, _env, flags) {
      const { runDemo } = await import('./demo/run-demo.js');
      await runDemo({ out: io.out, fast: flags.has('--fast') });
      return 0;
    },
  },
};

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

function usageOf(name: string, command: Command): string {
  const flags = [
    ...Object.entries(command.options ?? {}).map(([f, m]) => `  ${`${f} X`.padEnd(8)} ${m}`),
    ...Object.entries(command.flags ?? {}).map(([f, m]) => `  ${f.padEnd(8)} ${m}`),
  ];
  return [
    command.usage,
    '',
    'options:',
    ...flags,
    `  ${'--help'.padEnd(8)} this text (also -h)`,
    '',
    name === 'demo' ? 'Runs on its own settings; the environment is not read.' : CONFIGURATION,
  ].join('\n');
}

type Parsed =
  | { help: true }
  | { help: false; flags: Set<string>; values: Map<string, string> }
  | { problem: string };

/** --help/-h anywhere wins; otherwise any argument that is not one of the command's flags is a mistake. */
function parseFlags(args: string[], command: Command): Parsed {
  if (args.some((a) => a === '--help' || a === '-h')) return { help: true };
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const [name = arg, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (command.options?.[name] !== undefined) {
      const value = inline ?? args[(i += 1)];
      if (value === undefined || value === '') return { problem: `${name} needs a value` };
      values.set(name, value);
    } else if (command.flags?.[arg] !== undefined) flags.add(arg);
    else if (arg.startsWith('-')) return { problem: `unknown option ${JSON.stringify(arg)}` };
    else return { problem: `unexpected argument ${JSON.stringify(arg)}` };
  }
  return { help: false, flags, values };
}

export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  const [name = 'start', ...rest] = argv;
  const env = () => io.env ?? readEnvironment();
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command) {
    const parsed = parseFlags(rest, command);
    if ('problem' in parsed) {
      io.err(`agent-relay ${name}: ${parsed.problem}\n\n${usageOf(name, command)}`);
      return 2;
    }
    if (parsed.help) {
      io.out(usageOf(name, command));
      return 0;
    }
    return command.run(io, env, parsed.flags, parsed.values);
  }
  switch (name) {
    case 'emulator': {
      const { EmulatorCliError, runEmulatorCli } = await import('./emulator/cli.js');
      try {
        await runEmulatorCli(rest, { out: io.out, err: io.err });
      } catch (err) {
        if (!(err instanceof EmulatorCliError)) throw err;
        io.err(`agent-relay emulator: ${err.message}`);
        return 2;
      }
      return 0;
    }
    case 'help':
    case '--help':
    case '-h': {
      const [topic] = rest;
      if (topic === undefined || ['help', '--help', '-h'].includes(topic)) {
        io.out(USAGE);
        return 0;
      }
      // `help emulator` is `emulator --help`; every other topic is a command's own usage.
      if (topic === 'emulator') return main(['emulator', '--help'], io);
      const about = Object.hasOwn(COMMANDS, topic) ? COMMANDS[topic] : undefined;
      if (!about) {
        io.err(`agent-relay help: unknown command ${JSON.stringify(topic)}\n\n${USAGE}`);
        return 2;
      }
      io.out(usageOf(topic, about));
      return 0;
    }
    case 'version':
    case '--version':
    case '-v':
      io.out(packageVersion());
      return 0;
    default:
      io.err(`agent-relay: unknown command ${JSON.stringify(name)}\n\n${USAGE}`);
      return 2;
  }
}

function configOrReport(io: CliIo, env: Record<string, string | undefined>) {
  try {
    return loadConfig(env, { isTTY: io.isTTY ?? process.stdout.isTTY === true });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(err.message);
    io.err(
      'See "Configuration" in docs/operating.md for every variable, or run `npm run doctor` ' +
        '(`node dist/cli.js doctor` in the container).',
    );
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

/** How long after the first stop signal a copy of it still counts as the same request. */
const SAME_STOP_MS = 1000;

function firstSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      // One Ctrl-C or `kill` can arrive several times: the terminal signals the whole group,
      // and npm passes it on to its script's process too. Copies within a second are the same
      // request; a signal after that, while draining, ends the process at once.
      const first = Date.now();
      const again = (code: number) => () => {
        if (Date.now() - first >= SAME_STOP_MS) process.exit(code);
      };
      process.on('SIGINT', again(130));
      process.on('SIGTERM', again(143));
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

async function migrate(
  io: CliIo,
  env: Record<string, string | undefined>,
  values: Map<string, string>,
): Promise<number> {
  const from = values.get('--from');
  const to = values.get('--to');
  if (from !== undefined || to !== undefined) return copyData(io, from, to);
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

/** `migrate --from A --to B`: copy a deployment's data (store/copy-database.ts). */
async function copyData(io: CliIo, from?: string, to?: string): Promise<number> {
  if (from === undefined || to === undefined) {
    io.err('agent-relay migrate: --from and --to go together (see agent-relay migrate --help)');
    return 2;
  }
  const { copyDatabase, isStoreError } = await import('./store/index.js');
  const { describeDatabase } = await import('./service/startup-report.js');
  let described: [string, string];
  try {
    described = [describeDatabase(from), describeDatabase(to)];
  } catch (err) {
    io.err(`agent-relay migrate: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  try {
    const { rows } = await copyDatabase({ from, to });
    const counts = Object.entries(rows).map(([table, n]) => `${table} ${n}`);
    io.out(`copied ${described[0]} to ${described[1]}: ${counts.join(', ')}`);
    return 0;
  } catch (err) {
    if (!isStoreError(err)) throw err;
    io.err(`agent-relay migrate: ${err.message}`);
    return 1;
  }
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

/** Runs the command and ends the process with its exit code (bin/agent-relay.js calls this). */
export function runCli(argv: string[]): void {
  main(argv).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`agent-relay: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}

// `node dist/cli.js …` (the container), `node --import tsx src/cli.ts …` and `tsx src/cli.ts …`
// (the npm scripts).
if (invokedDirectly()) runCli(process.argv.slice(2));
