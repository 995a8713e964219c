/**
 * The state history of each run: one row per state the relay recorded for it (at creation
 * and at every change), for the operator's console. Written by the runs repository. Also an
 * index for the console's newest-first listing of runs.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DatabaseKind } from '../schema.js';

export function runStatesMigration(kind: DatabaseKind): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      let table = db.schema.createTable('run_states');
      table =
        kind === 'postgres'
          ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
          : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('run_id', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('run_states_run_id')
        .on('run_states')
        .columns(['run_id', 'id'])
        .execute();
      await db.schema
        .createIndex('runs_created_at')
        .on('runs')
        .columns(['created_at', 'run_id'])
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropIndex('runs_created_at').execute();
      await db.schema.dropTable('run_states').execute();
    },
  };
}
