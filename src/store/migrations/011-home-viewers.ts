/**
 * Who has the Slack App Home tab open, and since when: kept in the database so that any
 * replica that sees one of their runs change refreshes their tab, not only the replica that
 * received the `app_home_opened` event.
 */
import type { Migration } from 'kysely/migration';
import { createTable, dropTables } from './ddl.js';

export function homeViewersMigration(): Migration {
  return {
    up: (db) =>
      createTable(db, 'home_viewers', ['team_id text', 'user_id text', 'opened_at bigint'], {
        primaryKey: ['team_id', 'user_id'],
      }),
    down: (db) => dropTables(db, ['home_viewers']),
  };
}
