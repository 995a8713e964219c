/**
 * What the Linear notifier remembers of each agent session, kept in the database so that every
 * replica decides from the same facts: whether the session's run is working (live, not
 * blocked, not ended), when the relay last wrote to the session, the keep-alive a replica has
 * claimed, and whether a Stop was just answered there. One row per session, by its thread key.
 */
import type { Migration } from 'kysely/migration';
import { createIndex, createTable, dropTables } from './ddl.js';

export function linearSessionsMigration(): Migration {
  return {
    async up(db) {
      await createTable(db, 'linear_sessions', [
        'thread_key text key',
        'working integer',
        'last_written_at bigint',
        'keep_alive_until bigint',
        'stopped integer',
        'updated_at bigint',
      ]);
      // The keep-alive sweep reads the working sessions quiet the longest.
      await createIndex(db, 'linear_sessions_working', 'linear_sessions', [
        'working',
        'last_written_at',
      ]);
    },
    down: (db) => dropTables(db, ['linear_sessions']),
  };
}
