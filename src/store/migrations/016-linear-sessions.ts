/**
 * What the Linear notifier remembers of each agent session, kept in the database so that every
 * replica decides from the same facts: whether the session's run is working (live, not
 * blocked, not ended), when the relay last wrote to the session, the keep-alive a replica has
 * claimed, and whether a Stop was just answered there. One row per session, by its thread key.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function linearSessionsMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('linear_sessions')
        .addColumn('thread_key', 'text', (c) => c.primaryKey())
        .addColumn('working', 'integer', (c) => c.notNull())
        .addColumn('last_written_at', 'bigint', (c) => c.notNull())
        .addColumn('keep_alive_until', 'bigint', (c) => c.notNull())
        .addColumn('stopped', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // The keep-alive sweep reads the working sessions quiet the longest.
      await db.schema
        .createIndex('linear_sessions_working')
        .on('linear_sessions')
        .columns(['working', 'last_written_at'])
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('linear_sessions').execute();
    },
  };
}
