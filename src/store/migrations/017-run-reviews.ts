/**
 * A run's spending limit now (`cap`, grown by each Continue) in whole micro-dollars, and the
 * question it waits on a person for (its plan, or going on past its cap) as JSON, bound to
 * a version so a stale press does nothing. Null: no cap, no question.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function runReviewsMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.alterTable('runs').addColumn('cap_micro_usd', 'bigint').execute();
      await db.schema.alterTable('runs').addColumn('review', 'text').execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.alterTable('runs').dropColumn('review').execute();
      await db.schema.alterTable('runs').dropColumn('cap_micro_usd').execute();
    },
  };
}
