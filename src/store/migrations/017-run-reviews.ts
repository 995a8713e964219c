/**
 * A run's spending limit now (`cap`, grown by each Continue) in whole micro-dollars, and the
 * question it waits on a person for (its plan, or going on past its cap) as JSON, bound to
 * a version so a stale press does nothing. Null: no cap, no question.
 */
import type { Migration } from 'kysely/migration';
import { addColumns, dropColumns } from './ddl.js';

export function runReviewsMigration(): Migration {
  return {
    up: (db) => addColumns(db, 'runs', ['cap_micro_usd bigint null', 'review text null']),
    down: (db) => dropColumns(db, 'runs', ['review', 'cap_micro_usd']),
  };
}
