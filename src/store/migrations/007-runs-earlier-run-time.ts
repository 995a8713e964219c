/**
 * A run can have several executions (a follow-up to an ended run starts a new one, and the
 * service's `run_time` covers only the current one): the time of the earlier ones is kept,
 * so people see the run time over all of them.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function runsEarlierRunTimeMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.alterTable('runs').addColumn('earlier_run_ms', 'bigint').execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.alterTable('runs').dropColumn('earlier_run_ms').execute();
    },
  };
}
