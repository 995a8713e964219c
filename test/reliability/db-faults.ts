/**
 * Real database faults for the outage tests: another PROCESS holding SQLite's write lock
 * (better-sqlite3 waits synchronously, so a lock held from this process could never be
 * released while the service waits), and a disk that is really full (a small tmpfs, filled).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import { ROOT } from '../helpers/child-process.js';

export interface Locker {
  /** Resolves when the lock is held. */
  held: Promise<void>;
  /** Resolves when the lock was released (the process ended). */
  released: Promise<void>;
  release(): void;
}

/** Hold `BEGIN EXCLUSIVE` on the database from a child process for `ms` (or until release). */
export function lockDatabase(path: string, ms: number): Locker {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1], { timeout: 5000 });
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('locked\\n');
    const done = () => { try { db.exec('ROLLBACK'); db.close(); } finally { process.exit(0); } };
    setTimeout(done, Number(process.argv[2]));
    process.on('SIGTERM', done);
  `;
  const child: ChildProcess = spawn(process.execPath, ['-e', script, path, String(ms)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const held = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.once('exit', () =>
      reject(new Error('the locking process ended before it held the lock')),
    );
  });
  return {
    held,
    released: once(child, 'exit').then(() => undefined),
    release: () => void child.kill('SIGTERM'),
  };
}

export interface SmallDisk {
  dir: string;
  /** Write a filler file until the disk says ENOSPC. */
  fill(): void;
  /** Delete the filler: space again. */
  free(): void;
  unmount(): void;
}

/** A tmpfs of `bytes` mounted at `dir`, or undefined when mounting is not allowed here. */
export function mountSmallDisk(dir: string, bytes: number): SmallDisk | undefined {
  mkdirSync(dir, { recursive: true });
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], {
    stdio: 'ignore',
  });
  if (mounted.status !== 0) return undefined;
  const filler = `${dir}/filler`;
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'w');
      const chunk = Buffer.alloc(16 * 1024, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as { code?: string }).code !== 'ENOSPC') throw err;
      } finally {
        closeSync(fd);
      }
    },
    free: () => rmSync(filler, { force: true }),
    unmount() {
      spawnSync('umount', ['-l', dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
