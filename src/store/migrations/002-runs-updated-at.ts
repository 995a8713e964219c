/**
 * The batch tracker reads only the run records written since its last cycle (instead of
 * every tracked run every cycle), by the record's own `updated_at`.
 */
import type { Migration } from 'kysely/migration';
import { createIndex } from './ddl.js';

export function runsUpdatedAtMigration(): Migration {
  return {
    up: (db) => createIndex(db, 'runs_updated_at', 'runs', ['updated_at']),
    async down(db) {
      await db.schema.dropIndex('runs_updated_at').execute();
    },
  };
}
