/**
 * pino JSON logs (pretty on a TTY or with LOG_PRETTY=1). Redaction is by field name at any
 * depth up to five levels: tokens, secrets, API keys, the private key, authorization and
 * cookie headers, and the environment variables that hold them; and in the message text, by
 * shape: token-looking words and OAuth parameters (a library's debug line, a URL).
 */
import { createRequire } from 'node:module';
import { pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { PrettyOptions } from 'pino-pretty';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { maskUrlPassword, REDACTED, redactSecretsInText, SECRET_FIELDS } from '../config/redact.js';
import { SECRET_VARIABLES } from '../config/variables.js';
import type { LogLevel } from '../config/load.js';

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
const OTHER_FIELDS = [
  'accessToken',
  'access_token',
  'clientSecret',
  'client_secret',
  'jwt',
  'password',
  // A slash command's response_url lets anyone holding it answer that person.
  'responseUrl',
  'response_url',
];
const URL_FIELDS = ['databaseUrl', 'DATABASE_URL'];
const MAX_DEPTH = 5;

/** Absent stays absent; a database URL keeps all but its password; the rest becomes `***`. */
function censor(value: unknown, path: string[]): unknown {
  if (value === undefined) return undefined;
  const field = path[path.length - 1] ?? '';
  if (URL_FIELDS.includes(field) && typeof value === 'string') return maskUrlPassword(value);
  return REDACTED;
}

/** Every field name whose value never reaches a log line. */
export const SECRET_NAMES: ReadonlySet<string> = new Set([
  ...SECRET_FIELDS,
  ...HEADER_FIELDS,
  ...OTHER_FIELDS,
  ...URL_FIELDS,
  ...SECRET_VARIABLES,
]);

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `value` with every secret field (by name, at depth 0..MAX_DEPTH) censored. Copies only
 * what changes: a line without secrets costs one walk over its keys and no allocation.
 * (pino's own `redact` would need a wildcard path per name and depth, all tried on every
 * line.) Errors are serialized first, so their own fields count.
 */
/** An error's message and stack may quote a token (a library's "bad token lin_api_…"). */
function scrubErrorText(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const err = value as { message?: unknown; stack?: unknown };
  return {
    ...err,
    ...(typeof err.message === 'string' ? { message: redactSecretsInText(err.message) } : {}),
    ...(typeof err.stack === 'string' ? { stack: redactSecretsInText(err.stack) } : {}),
  };
}

export function scrub(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return scrub({ ...pino.stdSerializers.err(value) }, depth);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = scrub(item, depth + 1);
      if (next !== item) (copy ??= [...value])[i] = next;
    });
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const next = SECRET_NAMES.has(key) ? censor(item, [key]) : scrub(item, depth + 1);
    if (next !== item) (copy ??= { ...value })[key] = next;
  }
  return copy ?? value;
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
    // Secrets are censored by field name at any depth up to MAX_DEPTH, in the line's own
    // fields, the child loggers' bindings and serialized errors.
    formatters: {
      log: (object: Record<string, unknown>) => {
        const { err, ...rest } = object;
        const clean = scrub(rest) as Record<string, unknown>;
        return err === undefined ? clean : { ...clean, err };
      },
      bindings: (bindings: Record<string, unknown>) => scrub(bindings) as Record<string, unknown>,
    },
    serializers: {
      err: (err: unknown) => scrubErrorText(scrub({ ...pino.stdSerializers.err(err as Error) }, 1)),
    },
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: {
      logMethod(this: PinoLogger, args: unknown[], method: (...a: unknown[]) => void) {
        // Called for enabled levels only; the message and any format arguments.
        const clean = args.map((a) => (typeof a === 'string' ? redactSecretsInText(a) : a));
        method.apply(this, clean);
      },
    },
  };
  const destination = options.destination ?? stdout();
  if (options.pretty) {
    // Loaded only for a pretty log (a terminal): the container's JSON log never needs it.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
    const stream = pretty({
      colorize: options.destination === undefined && process.stdout.isTTY === true,
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,service',
      customPrettifiers: SAID_IN_MESSAGE,
      destination,
    });
    return scrubChildren(pino(config, stream));
  }
  return scrubChildren(pino(config, destination));
}

/**
 * pino applies the bindings formatter to the root's bindings only; a child's bindings are
 * scrubbed here. The own `child` shadows pino's for this logger and every descendant.
 */
function scrubChildren(root: AppLogger): AppLogger {
  const childOf = root.child;
  root.child = function (this: AppLogger, bindings, options) {
    return childOf.call(this, scrub(bindings) as typeof bindings, options);
  } as typeof root.child;
  return root;
}

/**
 * The start-up report's and the console line's fields, for log search, say again what their
 * message already says in words. On a terminal a field whose value the message carries
 * verbatim is not printed a second time (the JSON line keeps every field).
 */
const REPEATED_FIELDS = [
  'url',
  'host',
  'agentService',
  'slack',
  'github',
  'linear',
  'jira',
  'teams',
  'console',
];
type Prettifier = NonNullable<PrettyOptions['customPrettifiers']>[string];
// pino-pretty leaves out a field whose prettifier returns undefined (its types say string).
const unlessSaid = ((value: unknown, _key: string, log: { msg?: unknown }) =>
  typeof value === 'string' && typeof log.msg === 'string' && log.msg.includes(value)
    ? undefined
    : JSON.stringify(value, null, 2)) as Prettifier;
const SAID_IN_MESSAGE = Object.fromEntries(REPEATED_FIELDS.map((key) => [key, unlessSaid]));

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
