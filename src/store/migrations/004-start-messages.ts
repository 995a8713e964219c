/**
 * A run's status message is posted ("Starting…") before the service is asked to create the
 * run, so it cannot hang off the run record yet: it is kept per request here. A row also
 * records that the acknowledgement was queued, so a retried attempt does not queue it again.
 */
import type { Migration } from 'kysely/migration';
import { createTable, dropTables } from './ddl.js';

export function startMessagesMigration(): Migration {
  return {
    up: (db) =>
      createTable(db, 'start_messages', [
        'request_id text key',
        'thread_key text',
        'message text null',
        'created_at bigint',
      ]),
    down: (db) => dropTables(db, ['start_messages']),
  };
}
