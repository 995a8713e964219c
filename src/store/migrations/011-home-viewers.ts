/**
 * Who has the Slack App Home tab open, and since when: kept in the database so that any
 * replica that sees one of their runs change refreshes their tab, not only the replica that
 * received the `app_home_opened` event.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function homeViewersMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('home_viewers')
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('opened_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('home_viewers_pk', ['team_id', 'user_id'])
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('home_viewers').execute();
    },
  };
}
