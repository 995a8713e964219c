/**
 * The static list of migrations, in order. Add a new file (`002-….ts`) and a line here; never
 * edit a migration that has shipped.
 */
import type { Migration, MigrationProvider } from 'kysely';
import type { DatabaseKind } from '../schema.js';
import { initialMigration } from './001-initial.js';
import { runsUpdatedAtMigration } from './002-runs-updated-at.js';
import { startMessagesMigration } from './004-start-messages.js';

export function migrationProvider(kind: DatabaseKind): MigrationProvider {
  return {
    getMigrations: (): Promise<Record<string, Migration>> =>
      Promise.resolve({
        '001-initial': initialMigration(kind),
        '002-runs-updated-at': runsUpdatedAtMigration(),
        '004-start-messages': startMessagesMigration(),
      }),
  };
}
