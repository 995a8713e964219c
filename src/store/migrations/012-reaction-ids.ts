/**
 * The platform ids of the reactions the relay added to messages, so a superseded one is taken
 * off by its id whatever identity the relay posts as (an App's bot or a plain token's user).
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function reactionIdsMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('reaction_ids')
        .addColumn('thread_key', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('reaction_id', 'text', (c) => c.notNull())
        .addColumn('added_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('reaction_ids_pk', ['thread_key', 'message_id', 'content'])
        .execute();
      await db.schema
        .createIndex('reaction_ids_added_at')
        .on('reaction_ids')
        .column('added_at')
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('reaction_ids').execute();
    },
  };
}
