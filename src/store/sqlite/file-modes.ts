/**
 * The database's files are for the service alone: a directory it creates is 0700, the file
 * and its `-wal`/`-shm` 0600, whatever the process's umask. SQLite gives the log and the
 * shared-memory file the database file's own mode when it creates them, so the file is made
 * (or tightened) before SQLite opens it, and the two others are tightened when present.
 */
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureDirectory } from './ensure-directory.js';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** Before the first connection: the directory (if missing) and the file, owner-only. */
export function prepareDatabaseFile(path: string): void {
  const dir = dirname(path);
  if (!existsSync(dir)) {
    ensureDirectory(dir, DIR_MODE);
    chmodSync(dir, DIR_MODE);
  }
  if (!existsSync(path)) closeSync(openSync(path, 'a', FILE_MODE));
  restrictDatabaseFiles(path);
}

/** The file, its write-ahead log and its shared-memory index, where present: 0600. */
export function restrictDatabaseFiles(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, FILE_MODE);
    } catch (err) {
      // Absent (no log yet), or not ours to change (a file the operator provisioned).
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw err;
    }
  }
}
