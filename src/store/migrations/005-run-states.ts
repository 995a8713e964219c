/**
 * The state history of each run: one row per state the relay recorded for it (at creation
 * and at every change), for the operator's console. Written by the runs repository. Also an
 * index for the console's newest-first listing of runs.
 */
import type { Migration } from 'kysely/migration';
import type { DatabaseKind } from '../schema.js';
import { createIndex, createTable, dropTables } from './ddl.js';

export function runStatesMigration(kind: DatabaseKind): Migration {
  return {
    async up(db) {
      await createTable(db, 'run_states', ['id serial', 'run_id text', 'state text', 'at bigint'], {
        kind,
      });
      await createIndex(db, 'run_states_run_id', 'run_states', ['run_id', 'id']);
      await createIndex(db, 'runs_created_at', 'runs', ['created_at', 'run_id']);
    },
    async down(db) {
      await db.schema.dropIndex('runs_created_at').execute();
      await dropTables(db, ['run_states']);
    },
  };
}
