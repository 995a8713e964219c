/**
 * Workspaces that installed the Slack app through OAuth (one row per workspace, or per
 * Enterprise Grid organisation for an org-wide install), and which organisation each
 * workspace seen under an org-wide install belongs to. The installation itself is stored
 * sealed (encrypted by the Slack side before it reaches the store): no token in clear.
 */
import type { Migration } from 'kysely/migration';
import { createTable, dropTables } from './ddl.js';

export function slackInstallationsMigration(): Migration {
  return {
    async up(db) {
      await createTable(
        db,
        'installations',
        [
          'platform text',
          // '' when there is none: part of the key, and NULLs would not be equal in it.
          'enterprise_id text',
          'team_id text',
          'is_enterprise_install integer',
          'sealed text',
          'installed_by text null',
          'created_at bigint',
          'updated_at bigint',
        ],
        { primaryKey: ['platform', 'enterprise_id', 'team_id'] },
      );
      await createTable(
        db,
        'installation_teams',
        ['platform text', 'team_id text', 'enterprise_id text', 'updated_at bigint'],
        { primaryKey: ['platform', 'team_id'] },
      );
    },
    down: (db) => dropTables(db, ['installation_teams', 'installations']),
  };
}
