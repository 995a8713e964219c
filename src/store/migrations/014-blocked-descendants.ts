/**
 * The orchestration children (and deeper descendants) of tracked runs that are waiting for
 * approval: one row per descendant, `blocked` while its current BLOCKED episode lasts, so a
 * thread is told once per episode, whichever replica or restart sees it.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function blockedDescendantsMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('blocked_descendants')
        .addColumn('run_id', 'text', (c) => c.primaryKey())
        .addColumn('ancestor_run_id', 'text', (c) => c.notNull())
        .addColumn('blocked', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('blocked_descendants').execute();
    },
  };
}
