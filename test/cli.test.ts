import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import { FAST_TIMINGS, startEmulator } from '../src/emulator/index.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(env: Record<string, string>, stopSignal?: Promise<string>) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      out: (l: string) => void out.push(l),
      err: (l: string) => void err.push(l),
      env: { LOG_LEVEL: 'silent', ...env },
      isTTY: false,
      stopSignal,
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function healthcheck(port: number): Promise<number> {
  return main(['healthcheck'], io({ PORT: String(port), HOST: '127.0.0.1' }).io);
}

describe('agent-relay CLI', () => {
  it('prints usage for help, and exits 2 on an unknown command', async () => {
    const help = io({});
    expect(await main(['--help'], help.io)).toBe(0);
    expect(help.out.join('\n')).toMatch(
      /start .*\n.*emulator[\s\S]*migrate[\s\S]*doctor[\s\S]*demo/,
    );
    const bad = io({});
    expect(await main(['launch'], bad.io)).toBe(2);
    expect(bad.err.join('\n')).toContain('unknown command "launch"');
  });

  /** What a run of `main` did: exit code and output, or 'still running' after `ms`. */
  async function settle(argv: string[], env: Record<string, string>, ms = 5_000) {
    const run = io(env, new Promise<string>(() => {}));
    const exit = await Promise.race([
      main(argv, run.io),
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms)),
    ]);
    return { exit, out: run.out.join('\n'), err: run.err.join('\n') };
  }

  const SUBCOMMANDS = ['start', 'emulator', 'migrate', 'doctor', 'healthcheck', 'demo'];

  describe.each(SUBCOMMANDS)('%s', (command) => {
    // Were any of them to start, it would bind PORT (or the emulator's 8787), create the
    // database file, or (start, emulator) keep running until its stop signal.
    const sideEffects = async () => {
      const port = await freePort();
      const path = join(dir, 'help', command, 'never.db');
      const env = { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${path}` };
      const untouched = async () => {
        expect(existsSync(path), 'no database created').toBe(false);
        expect(await healthcheck(port), 'nothing listening on PORT').toBe(1);
      };
      return { env, untouched };
    };

    it.each(['--help', '-h'])(
      `answers %s with its usage and exit 0, starting nothing`,
      async (flag) => {
        const { env, untouched } = await sideEffects();
        const run = await settle([command, flag], env);
        expect(run.exit).toBe(0);
        expect(run.out).toMatch(new RegExp(`^usage: agent-relay ${command}\\b`));
        expect(run.out).toMatch(/--help/);
        expect(run.err).toBe('');
        await untouched();
      },
    );

    it('help <command> prints the same usage', async () => {
      const direct = await settle([command, '--help'], {});
      const viaHelp = await settle(['help', command], {});
      expect(viaHelp.exit).toBe(0);
      expect(viaHelp.out).toBe(direct.out);
    });

    it.each([
      [['--bogus'], /unknown option '?"?--bogus/i],
      [['-x'], /unknown option '?"?-x/i],
      [['surplus'], /unexpected argument '?"?surplus/i],
    ])('refuses %j with a clear error and exit 2, starting nothing', async (args, problem) => {
      const { env, untouched } = await sideEffects();
      const run = await settle([command, ...args], env);
      expect(run.exit).toBe(2);
      expect(run.err).toMatch(new RegExp(`^agent-relay ${command}: `));
      expect(run.err).toMatch(problem);
      expect(run.err).toMatch(new RegExp(`usage: agent-relay ${command}\\b`));
      expect(run.out).toBe('');
      await untouched();
    });
  });

  it('lists every subcommand in the general usage, and refuses help on an unknown one', async () => {
    const help = await settle(['help'], {});
    expect(help.exit).toBe(0);
    for (const command of SUBCOMMANDS) expect(help.out).toMatch(new RegExp(`^  ${command} `, 'm'));
    const bad = await settle(['help', 'launch'], {});
    expect(bad.exit).toBe(2);
    expect(bad.err).toContain('unknown command "launch"');
  });

  it('demo takes --fast (and nothing else)', async () => {
    const help = await settle(['demo', '--help'], {});
    expect(help.out).toMatch(/--fast/);
    const both = await settle(['demo', '--fast', '--slow'], {});
    expect(both.exit).toBe(2);
    expect(both.err).toContain('unknown option "--slow"');
  });

  it('migrate creates and migrates the database', async () => {
    const path = join(dir, 'nested', 'migrate.db');
    const run = io({ DATABASE_URL: `sqlite:${path}` });
    expect(await main(['migrate'], run.io)).toBe(0);
    expect(run.out).toEqual([`migrations applied: SQLite at ${path}`]);
    expect(existsSync(path)).toBe(true);
  });

  it('start serves until the stop signal, and healthcheck sees it', async () => {
    const port = await freePort();
    let stop: (s: string) => void = () => {};
    const signal = new Promise<string>((resolve) => (stop = resolve));
    const run = io(
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: join(dir, 'start.db'),
        EMULATOR_FAST: '1',
      },
      signal,
    );
    const exit = main(['start'], run.io);
    let healthy = 1;
    for (let i = 0; i < 100 && healthy !== 0; i++) {
      healthy = await healthcheck(port);
      if (healthy !== 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(healthy).toBe(0);
    stop('SIGTERM');
    expect(await exit).toBe(0);
    expect(await healthcheck(port)).toBe(1);
  });

  it('start refuses a rejected AGENT_API_KEY with one line and exit code 1', async () => {
    const emulator = await startEmulator({ apiKey: 'right', timings: FAST_TIMINGS });
    try {
      const run = io({
        PORT: '0',
        DATABASE_URL: join(dir, 'key.db'),
        AGENT_API_URL: emulator.baseUrl,
        AGENT_API_KEY: 'not-the-key',
      });
      expect(await main(['start'], run.io)).toBe(1);
      expect(run.err).toHaveLength(1);
      expect(run.err[0]).toMatch(
        new RegExp(`^agent-relay: AGENT_API_KEY was rejected by ${emulator.baseUrl} \\(401\\)`),
      );
      expect(run.err[0]).not.toContain('not-the-key');
    } finally {
      await emulator.close();
    }
  });

  it('start reports configuration problems and exits 1', async () => {
    const run = io({ LOG_LEVEL: 'chatty', GITHUB_APP_ID: '7' });
    expect(await main(['start'], run.io)).toBe(1);
    const text = run.err.join('\n');
    expect(text).toContain('LOG_LEVEL: must be trace, debug, info, warn, error, fatal or silent');
    expect(text).toContain('GITHUB_PRIVATE_KEY: required with GITHUB_APP_ID');
    // The hint names forms that run: the npm script in a clone, the build in the container.
    expect(text).toContain('`npm run doctor` (`node dist/cli.js doctor` in the container)');
  });
});
