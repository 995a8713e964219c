/**
 * Our pino-style Logger as the logger Bolt, the WebClient and Socket Mode expect
 * (`debug(...msg)`, levels, names). Messages become one string; an Error argument is kept
 * as `err` so pino serialises it. Level filtering stays with our logger.
 */
import type { Logger as BoltLogger } from '@slack/bolt';
import { LogLevel } from '@slack/bolt';
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

function split(args: unknown[]): [object, string] {
  const err = args.find((a): a is Error => a instanceof Error);
  return [err === undefined ? {} : { err }, args.map(describe).join(' ')];
}

/**
 * Bolt's line for a request whose workspace authorize refused: the ingress logs its own
 * (rate-limited, with the workspace), so Bolt's is kept at debug.
 */
const QUIET = 'Authorization of incoming event did not succeed';

export function toBoltLogger(logger: Logger, name = 'slack'): BoltLogger {
  let level: LogLevel = LogLevel.INFO;
  let log = logger.child({ component: name });
  return {
    debug: (...args: unknown[]) => log.debug(...split(args)),
    info: (...args: unknown[]) => log.info(...split(args)),
    warn: (...args: unknown[]) =>
      typeof args[0] === 'string' && args[0].startsWith(QUIET)
        ? log.debug(...split(args))
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
