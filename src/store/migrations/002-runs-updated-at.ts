/**
 * The batch tracker reads only the run records written since its last cycle (instead of
 * every tracked run every cycle), by the record's own `updated_at`.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function runsUpdatedAtMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.createIndex('runs_updated_at').on('runs').column('updated_at').execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropIndex('runs_updated_at').execute();
    },
  };
}
