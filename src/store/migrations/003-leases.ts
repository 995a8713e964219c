/**
 * Named leases shared by every replica on one database: the tracker's cycle is held by one
 * replica at a time (repos/leases-repo.ts). `epoch` grows each time the lease changes hands,
 * so a holder can tell that someone else held it in between.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function leasesMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('epoch', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('leases').execute();
    },
  };
}
