/**
 * What each run cost so far, as the service last reported it: the cost in whole
 * micro-dollars (exact to sum for a month's spend on either database) and the token total.
 * Null: not reported (never 0). And the requester's id as a column of its own, so a person's
 * month is one query.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function runsUsageMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.alterTable('runs').addColumn('cost_micro_usd', 'bigint').execute();
      await db.schema.alterTable('runs').addColumn('total_tokens', 'bigint').execute();
      // Who asked, as a plain column: a person's month across places (earlier rows: null).
      await db.schema.alterTable('runs').addColumn('requester_id', 'text').execute();
      // A place's month: the runs of one thread-key prefix created since the month began.
      await db.schema
        .createIndex('runs_created_at_idx')
        .ifNotExists()
        .on('runs')
        .column('created_at')
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropIndex('runs_created_at_idx').ifExists().execute();
      await db.schema.alterTable('runs').dropColumn('requester_id').execute();
      await db.schema.alterTable('runs').dropColumn('total_tokens').execute();
      await db.schema.alterTable('runs').dropColumn('cost_micro_usd').execute();
    },
  };
}
