/**
 * Child processes: the backends (emulator + fake APIs, forked with IPC) and the
 * bare-framework floor app; readiness, memory and metrics probes. Each child's output goes
 * to a log file in the work dir. The service itself: service-process.ts.
 */
import { fork, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import type { BackendsApi } from '../children/backends-api.js';
import { BENCH_SECRETS } from './secrets.js';
import { rpcClient } from './rpc.js';
import type { RpcClient } from './rpc.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TSX = ['--import', 'tsx'];

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export interface Backends {
  rpc: RpcClient<BackendsApi>;
  stop(): Promise<void>;
}

export async function startBackends(): Promise<Backends> {
  const child = fork(join(ROOT, 'bench/children/backends.ts'), [], {
    cwd: ROOT,
    execArgv: TSX,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await once(child, 'spawn');
  const rpc = rpcClient<BackendsApi>(child);
  return {
    rpc,
    async stop() {
      await rpc.call('close', null).catch(() => undefined);
      child.disconnect();
      await stopChild(child, 5_000);
    },
  };
}

export interface ServiceProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** performance.now() just before spawn. */
  spawnedAt: number;
  logFile: string;
  stop(): Promise<void>;
}

export function spawnLogged(
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  cwd = ROOT,
): ChildProcess {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  return child;
}

export async function startFloorProcess(workDir: string): Promise<ServiceProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    FLOOR_PORT: String(port),
    FLOOR_SLACK_SECRET: BENCH_SECRETS.slackSigningSecret,
    FLOOR_GITHUB_SECRET: BENCH_SECRETS.githubWebhookSecret,
  };
  const logFile = join(workDir, 'floor.log');
  const spawnedAt = performance.now();
  const child = spawnLogged([...TSX, 'bench/children/floor-app.ts'], env, logFile);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    child,
    spawnedAt,
    logFile,
    stop: () => stopChild(child),
  };
}

/**
 * The work floor (children/floor-work-app.ts): a bare Bolt app doing the relay's outside work
 * for a mention against these backends, with its own SQLite file.
 */
export async function startWorkFloorProcess(input: {
  workDir: string;
  name: string;
  agentBaseUrl: string;
  agentKey: string;
  slackApiUrl: string;
}): Promise<ServiceProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    FLOOR_PORT: String(port),
    FLOOR_SLACK_SECRET: BENCH_SECRETS.slackSigningSecret,
    FLOOR_SLACK_API_URL: input.slackApiUrl,
    FLOOR_AGENT_URL: input.agentBaseUrl,
    FLOOR_AGENT_KEY: input.agentKey,
    FLOOR_DATABASE: join(input.workDir, `${input.name}.db`),
  };
  const logFile = join(input.workDir, `${input.name}.log`);
  const spawnedAt = performance.now();
  const child = spawnLogged([...TSX, 'bench/children/floor-work-app.ts'], env, logFile);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    child,
    spawnedAt,
    logFile,
    stop: () => stopChild(child),
  };
}

/** CPU time a process has used so far (user + system, all its threads; ms), from /proc. */
export function cpuTimeMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Linux's USER_HZ, what /proc/<pid>/stat counts CPU time in (100 on every common kernel). */
const CLOCK_TICKS_PER_SECOND = 100;

/** Poll `path` until it answers 200; resolves with performance.now() at that moment. */
export async function waitFor200(
  proc: ServiceProcess,
  path: string,
  timeoutMs = 60_000,
): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null) {
      throw new Error(
        `${proc.logFile}: process exited (${proc.child.exitCode})\n${tail(proc.logFile)}`,
      );
    }
    try {
      const res = await request(proc.url + path, { method: 'GET' });
      await res.body.dump();
      if (res.statusCode === 200) return performance.now();
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline)
      throw new Error(`${proc.url}${path}: not 200 in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}

/** Resident set size of a process from /proc (bytes); NaN where /proc is missing. */
export function residentBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? Number.NaN : Number(kb) * 1024;
  } catch {
    return Number.NaN;
  }
}

/** Selected gauges from the service's /metrics (Prometheus text). */
export async function scrapeMetrics(
  url: string,
  names: readonly string[],
): Promise<Record<string, number>> {
  const res = await request(`${url}/metrics`);
  const text = await res.body.text();
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const [name, value] = line.split(' ');
    if (name !== undefined && value !== undefined && names.includes(name))
      out[name] = Number(value);
  }
  return out;
}
