/**
 * Creates the folder a SQLite file lives in, one level at a time.
 *
 * Node's `mkdirSync(dir, { recursive: true })` never returns on some paths it cannot create
 * (under /proc it spins at full CPU, deaf to signals), so this walks up to the nearest
 * folder that exists and creates each missing level with a plain `mkdir`, which fails at
 * once with a coded error (ENOENT, ENOTDIR, EACCES, EROFS).
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** `mode`: for each level it creates (the umask still applies; callers chmod what must be exact). */
export function ensureDirectory(dir: string, mode?: number): void {
  const missing: string[] = [];
  let current = dir;
  while (!exists(current)) {
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const level of missing) {
    try {
      mkdirSync(level, mode);
    } catch (err) {
      // Another process made it between the check and here: that is what was wanted.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
