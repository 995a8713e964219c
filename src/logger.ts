/**
 * pino JSON logs (pretty on a TTY or with LOG_PRETTY=1). Redaction is by field name at any
 * depth up to five levels: tokens, secrets, API keys, the private key, authorization and
 * cookie headers, and the environment variables that hold them.
 */
import { pino } from 'pino';
import pretty from 'pino-pretty';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { maskUrlPassword, REDACTED, SECRET_FIELDS } from './config-redact.js';
import { SECRET_VARIABLES } from './config-variables.js';
import type { LogLevel } from './config.js';

export type AppLogger = PinoLogger;

const HEADER_FIELDS = [
  'authorization',
  'Authorization',
  'cookie',
  'Cookie',
  'x-slack-signature',
  'x-hub-signature-256',
  'x-hub-signature',
];
const OTHER_FIELDS = ['accessToken', 'access_token', 'clientSecret', 'client_secret', 'jwt'];
const URL_FIELDS = ['databaseUrl', 'DATABASE_URL'];
const MAX_DEPTH = 5;

/** Absent stays absent; a database URL keeps all but its password; the rest becomes `***`. */
function censor(value: unknown, path: string[]): unknown {
  if (value === undefined) return undefined;
  const field = path[path.length - 1] ?? '';
  if (URL_FIELDS.includes(field) && typeof value === 'string') return maskUrlPassword(value);
  return REDACTED;
}

/** The pino `redact` paths: every sensitive name at depth 0..MAX_DEPTH. */
export function redactPaths(): string[] {
  const names = [
    ...SECRET_FIELDS,
    ...HEADER_FIELDS,
    ...OTHER_FIELDS,
    ...URL_FIELDS,
    ...SECRET_VARIABLES,
  ];
  const paths: string[] = [];
  for (const name of names) {
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`;
    for (let depth = 0; depth <= MAX_DEPTH; depth++) {
      const prefix = '*.'.repeat(depth);
      paths.push(key.startsWith('[') ? `${prefix.slice(0, -1)}${key}` : `${prefix}${key}`);
    }
  }
  // `["x"]` at depth 0 is not a valid path: keep only well-formed ones.
  return paths.filter((p) => !p.startsWith('['));
}

export interface LoggerOptions {
  level: LogLevel;
  pretty: boolean;
  /** Where lines go; default stdout. Tests pass a stream to read them back. */
  destination?: DestinationStream;
  /** Fields on every line. */
  base?: Record<string, unknown>;
}

export function createLogger(options: LoggerOptions): AppLogger {
  const config = {
    level: options.level,
    base: { service: 'agent-relay', ...options.base },
    redact: { paths: redactPaths(), censor },
    serializers: { err: pino.stdSerializers.err },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  const destination = options.destination ?? stdout();
  if (options.pretty) {
    const stream = pretty({
      colorize: options.destination === undefined && process.stdout.isTTY === true,
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,service',
      destination,
    });
    return pino(config, stream);
  }
  return pino(config, destination);
}

let stdoutGuarded = false;
/**
 * process.stdout (synchronous for files and pipes on Linux), not pino's default SonicBoom on
 * fd 1: when the reader of a pipe goes away, SonicBoom's exit-time flush retries EPIPE
 * forever and the process never exits. Here a closed stdout just drops the lines.
 */
function stdout(): DestinationStream {
  if (!stdoutGuarded) {
    stdoutGuarded = true;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE')
        process.stderr.write(`agent-relay: stdout failed: ${err.message}\n`);
    });
  }
  return process.stdout;
}

/** A logger that drops everything (tests, embedded use without logs). */
export function silentLogger(): AppLogger {
  return pino({ level: 'silent' });
}
