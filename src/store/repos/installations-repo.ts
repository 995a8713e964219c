/** Platform app installations (Slack and Linear OAuth): one row per workspace or organisation. */
import type { InstallationRecord, InstallationRepo } from '../../core/ports/index.js';
import { rowWhere } from './repo-context.js';
import type { RepoContext } from './repo-context.js';

export function createInstallationRepo(ctx: RepoContext): InstallationRepo {
  return {
    async save(r, now) {
      await ctx
        .db()
        .insertInto('installations')
        .values({
          platform: r.platform,
          enterprise_id: r.enterpriseId,
          team_id: r.teamId,
          is_enterprise_install: r.isEnterpriseInstall ? 1 : 0,
          sealed: r.sealed,
          installed_by: r.installedBy ?? null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(['platform', 'enterprise_id', 'team_id']).doUpdateSet((eb) => ({
            is_enterprise_install: eb.ref('excluded.is_enterprise_install'),
            sealed: eb.ref('excluded.sealed'),
            installed_by: eb.ref('excluded.installed_by'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    },

    async get(key) {
      const row = await rowWhere(ctx.db(), 'installations', {
        platform: key.platform,
        enterprise_id: key.enterpriseId,
        team_id: key.teamId,
      });
      if (row === undefined) return undefined;
      const record: InstallationRecord = {
        platform: key.platform,
        enterpriseId: row.enterprise_id,
        teamId: row.team_id,
        isEnterpriseInstall: Number(row.is_enterprise_install) === 1,
        sealed: row.sealed,
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
        ...(row.installed_by === null ? {} : { installedBy: row.installed_by }),
      };
      return record;
    },

    async replaceSealed(key, expected, sealed, now) {
      const result = await ctx
        .db()
        .updateTable('installations')
        .set({ sealed, updated_at: now })
        .where('platform', '=', key.platform)
        .where('enterprise_id', '=', key.enterpriseId)
        .where('team_id', '=', key.teamId)
        .where('sealed', '=', expected)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async remove(key) {
      const result = await ctx
        .db()
        .deleteFrom('installations')
        .where('platform', '=', key.platform)
        .where('enterprise_id', '=', key.enterpriseId)
        .where('team_id', '=', key.teamId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async linkTeam(platform, teamId, enterpriseId, now) {
      await ctx
        .db()
        .insertInto('installation_teams')
        .values({ platform, team_id: teamId, enterprise_id: enterpriseId, updated_at: now })
        .onConflict((oc) =>
          oc.columns(['platform', 'team_id']).doUpdateSet((eb) => ({
            enterprise_id: eb.ref('excluded.enterprise_id'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    },

    async enterpriseOf(platform, teamId) {
      const row = await rowWhere(ctx.db(), 'installation_teams', { platform, team_id: teamId });
      return row?.enterprise_id;
    },

    async count(platform) {
      const row = await ctx
        .db()
        .selectFrom('installations')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('platform', '=', platform)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
