/**
 * The `agent-relay` bin (bin/agent-relay.js): the compiled CLI when `npm run build` made one,
 * the TypeScript source through tsx otherwise, so a fresh clone runs it with no build step.
 * Each branch runs here against a stand-in CLI in a scratch copy, then the real one.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cleanEnv, ROOT } from '../helpers/child-process.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const pkg = z
  .object({ version: z.string(), bin: z.record(z.string(), z.string()) })
  .parse(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));
const BIN = pkg.bin['agent-relay']!;

/** A scratch checkout: the bin, package.json, the given files, and the real node_modules. */
function checkout(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'relay-bin-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(ROOT, BIN), join(dir, BIN));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function run(dir: string, args: string[]) {
  const child = spawnSync(process.execPath, [join(dir, BIN), ...args], {
    cwd: dir,
    env: cleanEnv({ LOG_LEVEL: 'silent' }),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

const STAND_IN = (label: string, typed: boolean) => `
export function runCli(argv${typed ? ': string[]' : ''}) {
  process.stdout.write(${JSON.stringify(label)} + ' ' + argv.join(' ') + '\\n');
  process.exit(3);
}`;

describe('bin/agent-relay.js', () => {
  it('is the package bin, and a fresh clone has it (npx links a bin only if its file exists)', () => {
    expect(BIN).toBe('bin/agent-relay.js');
    const tracked = spawnSync('git', ['ls-files', '--error-unmatch', BIN], { cwd: ROOT });
    expect(tracked.status, `${BIN} is committed, not built`).toBe(0);
  });

  it('runs dist/cli.js when it exists, passing the arguments and the exit code through', () => {
    const dir = checkout({
      'dist/cli.js': STAND_IN('built', false),
      'src/cli.ts': STAND_IN('source', true),
    });
    expect(run(dir, ['doctor', '--help'])).toMatchObject({
      code: 3,
      stdout: 'built doctor --help\n',
    });
  });

  it('runs src/cli.ts through tsx when nothing is built (a fresh clone)', () => {
    const dir = checkout({ 'src/cli.ts': STAND_IN('source', true) });
    expect(run(dir, ['start', '-h'])).toMatchObject({ code: 3, stdout: 'source start -h\n' });
  });

  it('says to build again when dist/ predates runCli', () => {
    const dir = checkout({ 'dist/cli.js': 'export const main = () => 0;\n' });
    const result = run(dir, ['--version']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is from an older build; run `npm run build` again');
  });

  it('runs the real CLI from this checkout', () => {
    const version = run(ROOT, ['--version']);
    expect(version.stderr).toBe('');
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    const help = run(ROOT, ['start', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: agent-relay start\n/);
    expect(run(ROOT, ['start', '--bogus']).code).toBe(2);
  });
});
