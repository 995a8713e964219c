/**
 * Refusals to people who may not use the bot are told at most once per person and thread in
 * a window, remembered here so every replica (and a restart) knows who was told; and they
 * travel in a lane of the outbox behind everyone else's notifications (`low_priority`), so a
 * crowd of outsiders never delays the people the relay serves.
 */
import type { Migration } from 'kysely/migration';
import { addColumns, createIndex, createTable, dropColumns, dropTables } from './ddl.js';

export function refusalsMigration(): Migration {
  return {
    async up(db) {
      await createTable(db, 'refusals', ['thread_key text', 'person text', 'told_at bigint'], {
        primaryKey: ['thread_key', 'person'],
      });
      await createIndex(db, 'refusals_told_at', 'refusals', ['told_at']);
      await addColumns(db, 'outbox', ['low_priority integer default 0']);
    },
    async down(db) {
      await dropColumns(db, 'outbox', ['low_priority']);
      await dropTables(db, ['refusals']);
    },
  };
}
