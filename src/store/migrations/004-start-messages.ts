/**
 * A run's status message is posted ("Starting…") before the service is asked to create the
 * run, so it cannot hang off the run record yet: it is kept per request here. A row also
 * records that the acknowledgement was queued, so a retried attempt does not queue it again.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function startMessagesMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('start_messages')
        .addColumn('request_id', 'text', (c) => c.primaryKey())
        .addColumn('thread_key', 'text', (c) => c.notNull())
        .addColumn('message', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('start_messages').execute();
    },
  };
}
