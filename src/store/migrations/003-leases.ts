/**
 * Named leases shared by every replica on one database: the tracker's cycle is held by one
 * replica at a time (repos/leases-repo.ts). `epoch` grows each time the lease changes hands,
 * so a holder can tell that someone else held it in between.
 */
import type { Migration } from 'kysely/migration';
import { createTable, dropTables } from './ddl.js';

export function leasesMigration(): Migration {
  return {
    up: (db) =>
      createTable(db, 'leases', [
        'name text key',
        'holder text',
        'epoch bigint',
        'lease_until bigint',
      ]),
    down: (db) => dropTables(db, ['leases']),
  };
}
