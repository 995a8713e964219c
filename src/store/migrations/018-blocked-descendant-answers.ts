/**
 * A blocked descendant's episode is a question its ancestor's thread may answer (Approve /
 * Reject): the episode's number binds the answers (`version`, counted from 1 by each
 * episode), and what was decided, by whom (`review_status`, `decided_by`; null: no answer).
 */
import type { Migration } from 'kysely/migration';
import { addColumns, dropColumns } from './ddl.js';

export function blockedDescendantAnswersMigration(): Migration {
  return {
    up: (db) =>
      addColumns(db, 'blocked_descendants', [
        'version integer default 0',
        'review_status text null',
        'decided_by text null',
      ]),
    down: (db) =>
      dropColumns(db, 'blocked_descendants', ['decided_by', 'review_status', 'version']),
  };
}
