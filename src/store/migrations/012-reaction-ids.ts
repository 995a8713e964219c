/**
 * The platform ids of the reactions the relay added to messages, so a superseded one is taken
 * off by its id whatever identity the relay posts as (an App's bot or a plain token's user).
 */
import type { Migration } from 'kysely/migration';
import { createIndex, createTable, dropTables } from './ddl.js';

export function reactionIdsMigration(): Migration {
  return {
    async up(db) {
      await createTable(
        db,
        'reaction_ids',
        [
          'thread_key text',
          'message_id text',
          'content text',
          'reaction_id text',
          'added_at bigint',
        ],
        { primaryKey: ['thread_key', 'message_id', 'content'] },
      );
      await createIndex(db, 'reaction_ids_added_at', 'reaction_ids', ['added_at']);
    },
    down: (db) => dropTables(db, ['reaction_ids']),
  };
}
