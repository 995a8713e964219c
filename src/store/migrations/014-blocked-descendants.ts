/**
 * The orchestration children (and deeper descendants) of tracked runs that are waiting for
 * approval: one row per descendant, `blocked` while its current BLOCKED episode lasts, so a
 * thread is told once per episode, whichever replica or restart sees it.
 */
import type { Migration } from 'kysely/migration';
import { createTable, dropTables } from './ddl.js';

export function blockedDescendantsMigration(): Migration {
  return {
    up: (db) =>
      createTable(db, 'blocked_descendants', [
        'run_id text key',
        'ancestor_run_id text',
        'blocked integer',
        'updated_at bigint',
      ]),
    down: (db) => dropTables(db, ['blocked_descendants']),
  };
}
