/**
 * The relay in a child process, the second documented way to start it (test/README.md): what
 * `agent-relay start` runs (relay-child.ts), for tests that kill it (SIGKILL of its process
 * group), stop it with a signal, or run several replicas at once. The environment is whole:
 * `cleanEnv` leaves nothing of the parent's (or a `.env` file's) settings in it; build it with
 * `relayEnv` (relay.ts).
 */
import { cleanEnv, startChild } from './child-process.js';
import type { Child } from './child-process.js';

export interface RelayProcessOptions {
  /** Inbox/outbox claim lease (ms): short, so a killed process's claims come back soon. */
  leaseMs: number;
  /** The workers' idle poll (ms); default 25. */
  workerPollMs?: number;
  /** The child's clock runs this many ms ahead (negative: behind) of the real one. */
  clockSkewMs?: number;
  /** How long it may take to listen (ms); default 15 s. */
  startTimeoutMs?: number;
  /** Linear: how long a live session may stay quiet before a keep-alive thought (ms). */
  linearKeepAliveMs?: number;
}

export interface RelayProcess {
  child: Child;
  /** Where it listens. */
  url: string;
}

/** Start the relay with `env` and wait until it listens. */
export async function startRelayProcess(
  env: Record<string, string>,
  options: RelayProcessOptions,
): Promise<RelayProcess> {
  const args = ['--import', 'tsx', 'test/helpers/relay-child.ts', String(options.leaseMs)];
  const keepAlive = options.linearKeepAliveMs;
  if (
    options.workerPollMs !== undefined ||
    options.clockSkewMs !== undefined ||
    keepAlive !== undefined
  )
    args.push(String(options.workerPollMs ?? 25));
  if (options.clockSkewMs !== undefined || keepAlive !== undefined)
    args.push(String(options.clockSkewMs ?? 0));
  if (keepAlive !== undefined) args.push(String(keepAlive));
  const child = startChild(process.execPath, args, cleanEnv(env));
  try {
    const line = await child.waitForLine(
      (l) => typeof l.url === 'string' && String(l.msg).includes('listening'),
      options.startTimeoutMs ?? 15_000,
    );
    return { child, url: String(line.url) };
  } catch (err) {
    child.signalGroup('SIGKILL');
    throw err;
  }
}
