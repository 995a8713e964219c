/** Start the CLI as a child process and read its JSON log lines. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARIABLES } from '../../src/config/variables.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Child {
  process: ChildProcess;
  lines: Record<string, unknown>[];
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the first log line matching `predicate`. */
  waitForLine(
    predicate: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when every process writing to stdout has ended (npm's children included). */
  outputClosed: Promise<void>;
  /** Signal the whole process group, as a terminal's Ctrl-C or `docker stop` would. */
  signalGroup(signal: NodeJS.Signals): void;
}

/**
 * A clean environment: nothing of the parent's Slack/GitHub/agent settings leaks in, and nothing
 * of a developer's `.env` either. The CLI merges `./.env` under the real environment without
 * overriding a variable that is set, even to the empty string, and an empty value means unset to
 * the config loader; so every variable agent-relay reads and the test does not give is set empty.
 */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG'];
  const env: Record<string, string> = {};
  for (const { name } of CONFIG_VARIABLES) env[name] = '';
  for (const key of keep) if (process.env[key] !== undefined) env[key] = process.env[key];
  return { ...env, LOG_PRETTY: '0', ...extra };
}

export function startChild(command: string, args: string[], env: Record<string, string>): Child {
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    const parts = out.split('\n');
    lines.length = 0;
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as Record<string, unknown>);
      } catch {
        // not a JSON line
      }
    }
    waiters.forEach((w) => w());
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const outputClosed = once(child.stdout, 'close').then(() => undefined);
  return {
    process: child,
    outputClosed,
    signalGroup(signal) {
      try {
        process.kill(-(child.pid ?? 0), signal);
      } catch {
        // already gone
      }
    },
    lines,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForLine(predicate, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(predicate);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(
          () => reject(new Error(`no matching log line in ${timeoutMs} ms\n${out}\n${err}`)),
          timeoutMs,
        );
        waiters.push(check);
        void exited.then(() => {
          check();
          reject(new Error(`process exited before the line appeared\n${out}\n${err}`));
        });
        check();
      });
    },
  };
}
