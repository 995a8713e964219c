/**
 * A blocked descendant's episode is a question its ancestor's thread may answer (Approve /
 * Reject): the episode's number binds the answers (`version`, counted from 1 by each
 * episode), and what was decided, by whom (`review_status`, `decided_by`; null: no answer).
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function blockedDescendantAnswersMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .alterTable('blocked_descendants')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('blocked_descendants')
        .addColumn('review_status', 'text')
        .execute();
      await db.schema.alterTable('blocked_descendants').addColumn('decided_by', 'text').execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.alterTable('blocked_descendants').dropColumn('decided_by').execute();
      await db.schema.alterTable('blocked_descendants').dropColumn('review_status').execute();
      await db.schema.alterTable('blocked_descendants').dropColumn('version').execute();
    },
  };
}
