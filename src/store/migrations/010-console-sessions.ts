/**
 * The console's server-side state: sessions (the cookie carries a random token; the row, by
 * the token's hash, says who and which role, and sign-out deletes it), one-time values
 * already used (OAuth `state`), and GitHub logins pinned to the account id they first
 * signed in with.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function consoleSessionsMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('console_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('operator_id', 'text', (c) => c.notNull())
        .addColumn('operator_name', 'text', (c) => c.notNull())
        .addColumn('via', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('grounds', 'text', (c) => c.notNull())
        .addColumn('csrf', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('console_sessions_expires')
        .on('console_sessions')
        .column('expires_at')
        .execute();
      await db.schema
        .createTable('used_once')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('login_pins')
        .addColumn('login', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('login_pins').execute();
      await db.schema.dropTable('used_once').execute();
      await db.schema.dropTable('console_sessions').execute();
    },
  };
}
