/**
 * `agent-relay emulator [--port 8787] [--host 127.0.0.1] [--api-key KEY] [--fast] [--quiet]`:
 * runs the emulator until SIGINT/SIGTERM. The first stdout line is the base URL alone; the next
 * ones say the key it accepts and a curl command that works as pasted.
 */
import { parseArgs } from 'node:util';
import { RelayError } from '../core/relay-error.js';
import { FAST_TIMINGS, startEmulator } from './index.js';
import type { Emulator } from './model/types.js';

export class EmulatorCliError extends RelayError<'invalid_argument'> {
  override readonly name = 'EmulatorCliError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_argument', message, options);
  }
}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Resolves when the emulator should stop (default: SIGINT or SIGTERM). */
  stopSignal?: Promise<unknown>;
  onReady?(emulator: Emulator): void;
}

const USAGE = `usage: agent-relay emulator [--port 8787] [--host 127.0.0.1] [--api-key dev-key] [--fast] [--quiet]

Runs the local Agent Run Service emulator until SIGINT or SIGTERM. The first line on stdout
is its base URL (…/api/v1) alone.

options:
  --port N       port to listen on (0: any free port; default 8787)
  --host ADDR    address to bind (default 127.0.0.1)
  --api-key KEY  the bearer key it accepts (default dev-key)
  --fast         short state timings: a run ends in about 0.25 s instead of about 5 s
  --quiet        no request log
  --help         this text (also -h)`;

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        port: { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        'api-key': { type: 'string', default: 'dev-key' },
        fast: { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    const problem = err instanceof Error ? err.message : String(err);
    // node:util says "Unknown option '--x'"; lower-cased, it reads like the other commands' errors.
    throw new EmulatorCliError(`${problem.charAt(0).toLowerCase()}${problem.slice(1)}\n\n${USAGE}`);
  }
}

function signalPromise(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.once('SIGINT', on);
    process.once('SIGTERM', on);
  });
}

/** A single-quoted shell word (a quote inside becomes '\\''). */
const shellWord = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** A ready-to-paste request the emulator answers with 200: the list of runs. */
export function curlExample(baseUrl: string, apiKey: string): string {
  const url = `${baseUrl}/agent/runs`;
  // An IPv6 address's brackets would be a glob to curl (-g stops that) and to some shells.
  const target = url.includes('[') ? `-g ${shellWord(url)}` : url;
  return `curl -H ${shellWord(`Authorization: Bearer ${apiKey}`)} ${target}`;
}

/** Starts the emulator and resolves once it has closed after a stop signal. */
export async function runEmulatorCli(argv: string[], io?: CliIo): Promise<void> {
  const out = io?.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io?.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  const args = parse(argv);
  if (args.help) {
    out(USAGE);
    return;
  }
  if (!/^\d{1,5}$/.test(args.port) || Number(args.port) > 65535) {
    throw new EmulatorCliError(`--port must be 0-65535, got ${JSON.stringify(args.port)}`);
  }
  if (args['api-key'].trim() === '') throw new EmulatorCliError('--api-key must not be empty');
  const emulator = await startEmulator({
    port: Number(args.port),
    host: args.host,
    apiKey: args['api-key'],
    ...(args.fast ? { timings: FAST_TIMINGS } : {}),
    ...(args.quiet ? {} : { log: err }),
  });
  const stop = io?.stopSignal ?? signalPromise();
  // The first line stays the base URL alone: tests and scripts read it.
  out(emulator.baseUrl);
  out(`API key: ${args['api-key']} (sent as Authorization: Bearer; --api-key sets another)`);
  out(`Try: ${curlExample(emulator.baseUrl, args['api-key'])}`);
  err(
    `Agent Run Service emulator listening on ${emulator.baseUrl} (admin: ${emulator.url}/_emulator/stats)`,
  );
  err('Prompt markers: [fail] [error] [block] [slow] [pending] [nocancel]. Ctrl-C stops.');
  io?.onReady?.(emulator);
  await stop;
  await emulator.close();
  err('emulator stopped');
}
