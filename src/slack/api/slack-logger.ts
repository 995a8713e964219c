/**
 * Our pino-style Logger as the logger Bolt, the WebClient and Socket Mode expect
 * (`debug(...msg)`, levels, names). Messages become one string; an Error argument is kept
 * as `err` so pino serialises it. Level filtering stays with our logger.
 *
 * What the Slack libraries print at debug is cut down here, before it becomes a log line:
 * request and response bodies and received events (which hold message text read from
 * threads, prompts, OAuth codes and the client secret) are reduced to their shape (field
 * names, `ok` and `error`), and token shapes and OAuth parameters left in any message are
 * redacted.
 */
import type { Logger as BoltLogger } from '@slack/bolt';
import { LogLevel } from '@slack/bolt';
import { redactSecretsInText } from '../../config/redact.js';
import type { Logger } from '../../core/ports/index.js';

function describe(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  if (arg instanceof Error) return arg.message;
  try {
    return JSON.stringify(arg) ?? String(arg);
  } catch {
    return String(arg);
  }
}

/** Lines the libraries end with a whole body or event: the prefix is kept, the body summed up. */
const PAYLOAD_PREFIXES = [
  'http request result: ',
  'http request body: ',
  'http request headers: ',
  'Received a message on the WebSocket: ',
  'Unable to parse an incoming WebSocket message',
  'Calling ack()',
];
/** A body is shown as this much at most: its field names and, for an answer, ok and error. */
const MAX_KEYS = 20;

function shapeOf(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `[${text.length} characters, not logged]`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `[${text.length} characters, not logged]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const parts = [
    `fields ${keys.slice(0, MAX_KEYS).join(',')}${keys.length > MAX_KEYS ? ',…' : ''}`,
  ];
  if (typeof record.ok === 'boolean') parts.push(`ok=${record.ok}`);
  if (typeof record.error === 'string') parts.push(`error=${record.error.slice(0, 100)}`);
  return `[${parts.join('; ')}; values not logged]`;
}

/** A library's debug message, safe to log. */
export function safeSlackMessage(text: string): string {
  const prefix = PAYLOAD_PREFIXES.find((p) => text.startsWith(p));
  if (prefix !== undefined) {
    const rest = text.slice(prefix.length);
    const start = rest.search(/[{[]/);
    return (
      redactSecretsInText(prefix + (start === -1 ? rest : rest.slice(0, start))) +
      (start === -1 ? '' : shapeOf(rest.slice(start)))
    );
  }
  if (/^\s*[{[]/.test(text)) return shapeOf(text.trim());
  return redactSecretsInText(text);
}

function split(args: unknown[]): [object, string] {
  const err = args.find((a): a is Error => a instanceof Error);
  return [err === undefined ? {} : { err }, safeSlackMessage(args.map(describe).join(' '))];
}

/**
 * Bolt's line for a request whose workspace authorize refused: the ingress logs its own
 * (rate-limited, with the workspace), so Bolt's is kept at debug.
 */
const QUIET = 'Authorization of incoming event did not succeed';

/**
 * Whether `logger` writes debug lines: pino says; a logger that cannot say is taken to. The
 * Slack libraries log a debug line (a request's body, its answer) for every API call; at
 * `info` the line is dropped, so it is not built (parsed, shaped, redacted) either.
 */
function writesDebug(logger: Logger): boolean {
  const probe = logger as Partial<{ isLevelEnabled(level: string): boolean }>;
  return typeof probe.isLevelEnabled === 'function' ? probe.isLevelEnabled('debug') : true;
}

export function toBoltLogger(logger: Logger, name = 'slack'): BoltLogger {
  let level: LogLevel = LogLevel.INFO;
  let log = logger.child({ component: name });
  const debug = (args: unknown[]) => {
    if (writesDebug(log)) log.debug(...split(args));
  };
  return {
    debug: (...args: unknown[]) => debug(args),
    info: (...args: unknown[]) => log.info(...split(args)),
    warn: (...args: unknown[]) =>
      typeof args[0] === 'string' && args[0].startsWith(QUIET)
        ? debug(args)
        : log.warn(...split(args)),
    error: (...args: unknown[]) => log.error(...split(args)),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: (n: string) => {
      log = logger.child({ component: n });
    },
  };
}
