/**
 * Workspaces that installed the Slack app through OAuth (one row per workspace, or per
 * Enterprise Grid organisation for an org-wide install), and which organisation each
 * workspace seen under an org-wide install belongs to. The installation itself is stored
 * sealed (encrypted by the Slack side before it reaches the store): no token in clear.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function slackInstallationsMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('installations')
        .addColumn('platform', 'text', (c) => c.notNull())
        // '' when there is none: part of the key, and NULLs would not be equal in it.
        .addColumn('enterprise_id', 'text', (c) => c.notNull())
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('is_enterprise_install', 'integer', (c) => c.notNull())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('installed_by', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('installations_pk', ['platform', 'enterprise_id', 'team_id'])
        .execute();
      await db.schema
        .createTable('installation_teams')
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('enterprise_id', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('installation_teams_pk', ['platform', 'team_id'])
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('installation_teams').execute();
      await db.schema.dropTable('installations').execute();
    },
  };
}
