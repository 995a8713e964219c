/**
 * Refusals to people who may not use the bot are told at most once per person and thread in
 * a window, remembered here so every replica (and a restart) knows who was told; and they
 * travel in a lane of the outbox behind everyone else's notifications (`low_priority`), so a
 * crowd of outsiders never delays the people the relay serves.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function refusalsMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('refusals')
        .addColumn('thread_key', 'text', (c) => c.notNull())
        .addColumn('person', 'text', (c) => c.notNull())
        .addColumn('told_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('refusals_pk', ['thread_key', 'person'])
        .execute();
      await db.schema.createIndex('refusals_told_at').on('refusals').column('told_at').execute();
      await db.schema
        .alterTable('outbox')
        .addColumn('low_priority', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.alterTable('outbox').dropColumn('low_priority').execute();
      await db.schema.dropTable('refusals').execute();
    },
  };
}
