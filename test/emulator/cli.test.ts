import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EmulatorCliError, runEmulatorCli } from '../../src/emulator/cli.js';
import { DEFAULT_TIMINGS, FAST_TIMINGS } from '../../src/emulator/index.js';
import type { Emulator, EmulatorTimings } from '../../src/emulator/index.js';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config/load.js';
import { createApi } from './helpers.js';

describe('runEmulatorCli', () => {
  /** Starts the CLI with `argv` and hands back its output and the emulator once it is ready. */
  async function started(argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    let stop!: () => void;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    let ready!: (e: Emulator) => void;
    const readyP = new Promise<Emulator>((resolve) => (ready = resolve));
    const done = runEmulatorCli(argv, {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      stopSignal,
      onReady: ready,
    });
    const emu = await readyP;
    return { out, err, emu, stop: () => (stop(), done) };
  }

  it('prints the base URL first, serves with the given key, and stops on its signal', async () => {
    const { out, err, emu, stop } = await started(['--port', '0', '--api-key', 'k1', '--fast']);
    expect(out[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(out[0]).toBe(emu.baseUrl);
    expect((await createApi(emu.baseUrl, 'k1')('GET', '/agent/runs')).status).toBe(200);
    expect((await createApi(emu.baseUrl, 'dev-key')('GET', '/agent/runs')).status).toBe(401);
    expect(err.some((l) => /GET \/api\/v1\/agent\/runs 200/.test(l))).toBe(true);
    expect(err.join('\n')).not.toContain('k1');
    await stop();
    await expect(fetch(emu.baseUrl + '/agent/runs')).rejects.toThrow();
  });

  /** The words a POSIX shell makes of `command` (printf stands in for its program). */
  function shellWords(command: string): string[] {
    const [program, ...rest] = command.split(' ');
    const echoed = execFileSync('sh', ['-c', `printf '%s\\n' ${rest.join(' ')}`], {
      encoding: 'utf8',
    });
    return [program!, ...echoed.split('\n').slice(0, -1)];
  }

  it('says after the URL which key it accepts, and a curl command that works as pasted', async () => {
    const key = "it's my key";
    const run = await started(['--port', '0', '--api-key', key, '--quiet']);
    try {
      expect(run.out[0]).toBe(run.emu.baseUrl);
      expect(run.out[1]).toBe(
        `API key: ${key} (sent as Authorization: Bearer; --api-key sets another)`,
      );
      expect(run.out[2]).toMatch(/^Try: curl /);
      const words = shellWords(run.out[2]!.slice('Try: '.length));
      expect(words).toEqual([
        'curl',
        '-H',
        `Authorization: Bearer ${key}`,
        `${run.emu.baseUrl}/agent/runs`,
      ]);
      const res = await fetch(words[3]!, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
    } finally {
      await run.stop();
    }
  });

  it.skipIf(spawnSync('curl', ['--version']).status !== 0)(
    'the printed curl command, run by a shell with the default key, answers 200',
    async () => {
      const run = await started(['--port', '0', '--quiet']);
      try {
        const curl = run.out[2]!.slice('Try: '.length);
        expect(curl).toBe(`curl -H 'Authorization: Bearer dev-key' ${run.emu.baseUrl}/agent/runs`);
        const status = await new Promise<string>((resolve, reject) =>
          execFile('sh', ['-c', `${curl} -s -o /dev/null -w '%{http_code}'`], (error, stdout) =>
            error ? reject(error) : resolve(stdout),
          ),
        );
        expect(status).toBe('200');
      } finally {
        await run.stop();
      }
    },
  );

  it('--fast does what the usage, the docs and EMULATOR_FAST say: a run ends in about 0.25 s instead of 5 s', async () => {
    // Creation to SUCCEEDED, to the nearest 0.05 s.
    const end = (t: EmulatorTimings) =>
      Math.round((t.queuedMs + t.pendingMs + t.claimedMs + t.runMs) / 50) / 20;
    const claim = `a run ends in about ${end(FAST_TIMINGS)} s instead of about ${end(DEFAULT_TIMINGS)} s`;
    expect(claim).toBe('a run ends in about 0.25 s instead of about 5 s');

    const usage: string[] = [];
    await runEmulatorCli(['--help'], { out: (l) => usage.push(l), err() {} });
    expect(usage.join('\n')).toMatch(new RegExp(`--fast +short state timings: ${claim}\n`));
    const doc = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
    expect(doc('src/emulator/README.md')).toContain(
      `| \`--fast\` | short state timings: ${claim} (`,
    );
    expect(doc('docs/operating.md')).toMatch(
      new RegExp(`^\\| \`EMULATOR_FAST\` \\| .*: ${claim} \\|`, 'm'),
    );
    const variable = CONFIG_VARIABLES.find((v) => v.name === 'EMULATOR_FAST');
    expect(variable?.meaning).toContain(claim);
    // EMULATOR_FAST gives the embedded emulator the very timings of --fast.
    expect(loadConfig({ EMULATOR_FAST: '1' }).agent).toEqual({ kind: 'emulator', fast: true });

    // And a run does end then.
    const run = await started(['--port', '0', '--fast', '--quiet']);
    try {
      const api = createApi(run.emu.baseUrl, 'dev-key');
      const created = Date.now();
      const { body } = await api('POST', '/agent/run', { prompt: 'time me' });
      const runId = (body as { run_id: string }).run_id;
      let state = '';
      while (state !== 'SUCCEEDED' && Date.now() - created < 5_000) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        state = ((await api('GET', `/agent/runs/${runId}`)).body as { state: string }).state;
      }
      const took = (Date.now() - created) / 1000;
      expect(state).toBe('SUCCEEDED');
      expect(took).toBeGreaterThanOrEqual(0.24);
      expect(took).toBeLessThan(1);
    } finally {
      await run.stop();
    }
  });

  it.each([
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--bogus']],
    [['extra-positional']],
    [['--api-key', ' ']],
  ])('rejects %j with an EmulatorCliError', async (argv) => {
    await expect(
      runEmulatorCli(argv, { out() {}, err() {}, stopSignal: Promise.resolve() }),
    ).rejects.toBeInstanceOf(EmulatorCliError);
  });

  it('prints usage for --help without starting', async () => {
    const out: string[] = [];
    await runEmulatorCli(['--help'], { out: (l) => out.push(l), err() {} });
    expect(out.join('\n')).toMatch(/--port 8787/);
  });

  it('closes on SIGTERM in a real process', async () => {
    const cli = fileURLToPath(new URL('../../src/emulator/cli.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import(${JSON.stringify(cli)}).then((m) => m.runEmulatorCli(['--port', '0', '--quiet']))`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const lines = createInterface({ input: child.stdout });
      const baseUrl = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
      });
      expect((await createApi(baseUrl, 'dev-key')('GET', '/agent/runs')).status).toBe(200);
      const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (code) => resolve(code)),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
