/**
 * SQLite's write-ahead log is copied into the database file by a checkpoint. Left to SQLite,
 * a commit does it once the log passes its threshold, and that commit stalls the event loop
 * while requests wait (the whole copy and its fsync happen inside that commit). So a small thread
 * with its own connection checkpoints every second instead: PASSIVE, so it never waits for
 * or blocks the service's readers and writers, and its file work happens off the event loop.
 * The commit-time checkpoint stays as a backstop should the thread be gone.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../core/ports/index.js';

export interface WalCheckpointer {
  /** Stop the thread and close its connection. Idempotent. */
  close(): Promise<void>;
}

/**
 * The thread's whole program: plain CommonJS run with `eval`, so it needs no file of its own
 * and loads the same under tsx, vitest and the compiled build.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true, timeout: 0 });
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: String((err && err.message) || err) });
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message.type !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export function startWalCheckpointer(
  path: string,
  options: { intervalMs: number; logger: Logger },
): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { driver, path, intervalMs: options.intervalMs },
    // Its own small heap: it holds one connection and a timer.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  worker.unref();
  let alive = true;
  let warned = false;
  worker.on('message', (message: { type: string; message?: string }) => {
    if (message.type === 'error' && !warned) {
      // Logged once: a failing checkpoint fails the same way every second.
      warned = true;
      options.logger.warn({ reason: message.message }, 'background WAL checkpoint failed');
    }
  });
  worker.on('error', (err) => {
    options.logger.warn(
      { err },
      'the WAL checkpoint thread stopped; commits checkpoint the log themselves',
    );
  });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      alive = false;
      resolve();
    }),
  );

  let closing: Promise<void> | undefined;
  return {
    close() {
      closing ??= (async () => {
        if (alive) worker.postMessage({ type: 'stop' });
        // A thread that does not stop in time (a checkpoint stuck on I/O) is ended.
        const timer = setTimeout(() => void worker.terminate(), 2_000);
        await exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}
