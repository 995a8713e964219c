/**
 * A run can have several executions (a follow-up to an ended run starts a new one, and the
 * service's `run_time` covers only the current one): the time of the earlier ones is kept,
 * so people see the run time over all of them.
 */
import type { Migration } from 'kysely/migration';
import { addColumns, dropColumns } from './ddl.js';

export function runsEarlierRunTimeMigration(): Migration {
  return {
    up: (db) => addColumns(db, 'runs', ['earlier_run_ms bigint null']),
    down: (db) => dropColumns(db, 'runs', ['earlier_run_ms']),
  };
}
