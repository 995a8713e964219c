import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, startChild } from '../helpers/child-process.js';
import type { Child } from '../helpers/child-process.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-start-'));
const children: Child[] = [];
afterAll(() => {
  for (const child of children) child.signalGroup('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `agent-relay start` as the container runs it: the CLI under node, not through npm. */
const CLI_START: [string, string[]] = [
  process.execPath,
  ['--import', 'tsx', 'src/cli.ts', 'start'],
];

/** A child started here, killed when the file is done if it has not stopped by then. */
function kept(...args: Parameters<typeof startChild>): Child {
  const child = startChild(...args);
  children.push(child);
  return child;
}

/**
 * How long a start may take here: the six children start at once, and on a fresh install
 * (tsx's transform cache empty, as in CI's second Node) each compiles the whole tree on two
 * cores. Start-up speed is measured in the benchmarks, not here.
 */
const START_MS = 40_000;

/** The drain's bound: requests, then workers, each for at most SHUTDOWN_TIMEOUT_MS. */
const SHUTDOWN_TIMEOUT_MS = 5_000;
const DRAIN_MS = 2 * SHUTDOWN_TIMEOUT_MS;
const env = (name: string) =>
  cleanEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: join(dir, `${name}.db`),
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
  });

describe.concurrent('npm start (child process)', { timeout: START_MS + 20_000 }, () => {
  it('starts on the embedded defaults, answers /healthz, /readyz, /metrics, and drains on SIGTERM', async () => {
    const child = kept('npm', ['start', '--silent'], env('npm'));
    const started = await child.waitForLine((l) => typeof l.url === 'string', START_MS);
    const url = started.url as string;
    expect(started.msg).toContain(`agent-relay is listening on ${url}`);
    expect(started.msg).toContain(`SQLite at ${join(dir, 'npm.db')}`);
    expect(started.msg).toMatch(
      /agent service: embedded emulator at http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(AGENT_API_URL is unset/,
    );
    expect(started.msg).toMatch(/slack: +off \(set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN/);
    expect(started.msg).toMatch(/github: +off \(set GITHUB_WEBHOOK_SECRET/);
    expect(started.msg).toMatch(/linear: +off \(set LINEAR_WEBHOOK_SECRET/);

    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', workers: 'ok' },
    });
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toContain('agent_relay_outbox_depth 0');
    expect(metrics).toContain(
      'agent_relay_http_requests_total{method="GET",route="/readyz",status="200"} 1',
    );
    // Slack and GitHub are off: their routes do not exist.
    expect((await fetch(`${url}/slack/events`, { method: 'POST' })).status).toBe(404);

    // A supervisor stops it by the one pid it started: npm's. npm passes the signal to its
    // script's process, which is the relay itself (the script execs node: no shell between).
    const t0 = Date.now();
    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    await child.outputClosed;
    expect(Date.now() - t0).toBeLessThan(DRAIN_MS);
    const messages = child.lines.map((l) => l.msg);
    expect(messages).toContain(
      'SIGTERM: stopping (in-flight work finishes, then the database closes)',
    );
    expect(messages.at(-1)).toBe('stopped');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('exits 0 after a Ctrl-C (SIGINT to the whole group: npm and the relay)', async () => {
    const child = kept('npm', ['start', '--silent'], env('ctrl-c'));
    const started = await child.waitForLine((l) => typeof l.url === 'string', START_MS);
    child.signalGroup('SIGINT');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    await child.outputClosed;
    expect(child.lines.at(-1)?.msg).toBe('stopped');
    await expect(fetch(`${started.url as string}/healthz`)).rejects.toThrow();
  });

  it('the CLI itself exits 0 on SIGTERM (what the container runs)', async () => {
    const child = kept(...CLI_START, env('cli'));
    await child.waitForLine((l) => typeof l.url === 'string', START_MS);
    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.lines.at(-1)?.msg).toBe('stopped');
  });

  it('takes copies of one signal (the terminal and npm each pass it on) as one request to drain', async () => {
    const child = kept(...CLI_START, env('copies'));
    await child.waitForLine((l) => typeof l.url === 'string', START_MS);
    child.process.kill('SIGTERM');
    // The copies come a moment later, once the first has started the drain.
    await child.waitForLine(
      (l) => typeof l.msg === 'string' && l.msg.startsWith('SIGTERM: stopping'),
    );
    child.process.kill('SIGTERM');
    child.process.kill('SIGINT');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.lines.at(-1)?.msg).toBe('stopped');
  });

  it('still drains and exits 0 when the reader of its stdout has gone away', async () => {
    // `start | head`: head exits after 200 bytes, so every later log line meets a closed pipe.
    const port = await freePort();
    const script =
      'node --import tsx src/cli.ts start | head -c 200 > /dev/null; echo "node exit ${PIPESTATUS[0]}"';
    const child = kept('bash', ['-c', script], { ...env('epipe'), PORT: String(port) });
    await until(
      async () =>
        (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok === true,
    );
    const node = readFileSync(
      `/proc/${child.process.pid}/task/${child.process.pid}/children`,
      'utf8',
    )
      .trim()
      .split(/\s+/)
      .map(Number)
      .find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('src/cli.ts'));
    expect(node).toBeDefined();
    process.kill(node!, 'SIGTERM');
    await child.exited;
    expect(child.stdout()).toBe('node exit 0\n');
  });

  it('a configuration error lists every problem and exits 1 without a stack trace', async () => {
    const child = kept(
      ...CLI_START,
      cleanEnv({
        PORT: 'x',
        AGENT_API_URL: 'http://127.0.0.1:9/api/v1',
        SLACK_BOT_TOKEN: 'xoxb-hush-77',
      }),
    );
    expect((await child.exited).code).toBe(1);
    const err = child.stderr();
    expect(err).toContain('Invalid configuration (3 problems)');
    for (const name of ['PORT', 'AGENT_API_KEY', 'SLACK_SIGNING_SECRET'])
      expect(err).toContain(`${name}:`);
    expect(err).not.toContain('hush-77');
    expect(err).not.toMatch(/\n\s+at /);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until(probe: () => Promise<boolean>, ms = START_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
