/**
 * What each run cost so far, as the service last reported it: the cost in whole
 * micro-dollars (exact to sum for a month's spend on either database) and the token total.
 * Null: not reported (never 0). And the requester's id as a column of its own, so a person's
 * month is one query.
 */
import type { Migration } from 'kysely/migration';
import { addColumns, createIndex, dropColumns } from './ddl.js';

export function runsUsageMigration(): Migration {
  return {
    async up(db) {
      await addColumns(db, 'runs', [
        'cost_micro_usd bigint null',
        'total_tokens bigint null',
        // Who asked, as a plain column: a person's month across places (earlier rows: null).
        'requester_id text null',
      ]);
      // A place's month: the runs of one thread-key prefix created since the month began.
      await createIndex(db, 'runs_created_at_idx', 'runs', ['created_at'], { ifNotExists: true });
    },
    async down(db) {
      await db.schema.dropIndex('runs_created_at_idx').ifExists().execute();
      await dropColumns(db, 'runs', ['requester_id', 'total_tokens', 'cost_micro_usd']);
    },
  };
}
