/**
 * The static list of migrations, in order. Add a new file (`002-….ts`) and a line here; never
 * edit a migration that has shipped.
 */
import type { Migration, MigrationProvider } from 'kysely';
import type { DatabaseKind } from '../schema.js';
import { initialMigration } from './001-initial.js';
import { runsUpdatedAtMigration } from './002-runs-updated-at.js';
import { slackInstallationsMigration } from './006-slack-installations.js';

export function migrationProvider(kind: DatabaseKind): MigrationProvider {
  return {
    getMigrations: (): Promise<Record<string, Migration>> =>
      Promise.resolve({
        '001-initial': initialMigration(kind),
        '002-runs-updated-at': runsUpdatedAtMigration(),
        '006-slack-installations': slackInstallationsMigration(),
      }),
  };
}
