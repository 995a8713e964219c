/**
 * A database path that cannot be created: `agent-relay start` says so in one line and exits
 * non-zero, however the path fails (under /proc, where Node's recursive mkdir never returns;
 * under a plain file). Each runs the real CLI as a child process, bounded by a timeout.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT } from '../helpers/child-process.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-dbpath-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BOUND_MS = 15_000;

/** Runs `agent-relay start`; a process still running after BOUND_MS is killed and reported. */
async function start(databaseUrl: string) {
  const child = spawn(process.execPath, [join(ROOT, 'bin/agent-relay.js'), 'start'], {
    cwd: ROOT,
    env: cleanEnv({ DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, BOUND_MS);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, timedOut, lines: stderr.trim().split('\n') };
}

describe('a database path that cannot be created', () => {
  it.skipIf(!existsSync('/proc/1'))(
    'under /proc: one line, a non-zero exit, no spinning',
    async () => {
      const result = await start('sqlite:/proc/1/agent-relay-test/x/y.db');
      expect(result.timedOut, 'the process ended by itself').toBe(false);
      expect(result.code).toBe(1);
      expect(result.lines).toHaveLength(1);
      expect(result.lines[0]).toMatch(/cannot open the database.*\/proc\/1\/agent-relay-test/);
    },
    BOUND_MS + 5_000,
  );

  it(
    'under a plain file: one line, a non-zero exit',
    async () => {
      const file = join(dir, 'a-file');
      writeFileSync(file, 'not a folder');
      const result = await start(`sqlite:${join(file, 'sub', 'relay.db')}`);
      expect(result.timedOut, 'the process ended by itself').toBe(false);
      expect(result.code).toBe(1);
      expect(result.lines).toHaveLength(1);
      expect(result.lines[0]).toMatch(/cannot open the database.*ENOTDIR/);
    },
    BOUND_MS + 5_000,
  );
});
