/**
 * The console's server-side state: sessions (the cookie carries a random token; the row, by
 * the token's hash, says who and which role, and sign-out deletes it), one-time values
 * already used (OAuth `state`), and GitHub logins pinned to the account id they first
 * signed in with.
 */
import type { Migration } from 'kysely/migration';
import { createIndex, createTable, dropTables } from './ddl.js';

export function consoleSessionsMigration(): Migration {
  return {
    async up(db) {
      await createTable(db, 'console_sessions', [
        'id text key',
        'operator_id text',
        'operator_name text',
        'via text',
        'role text',
        'grounds text',
        'csrf text',
        'created_at bigint',
        'expires_at bigint',
      ]);
      await createIndex(db, 'console_sessions_expires', 'console_sessions', ['expires_at']);
      await createTable(db, 'used_once', ['key text key', 'expires_at bigint']);
      await createTable(db, 'login_pins', ['login text key', 'user_id text', 'created_at bigint']);
    },
    down: (db) => dropTables(db, ['login_pins', 'used_once', 'console_sessions']),
  };
}
