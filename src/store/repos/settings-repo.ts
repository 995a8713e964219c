import type { StoreTx } from '../../core/ports/index.js';
import type { RepoContext } from './repo-context.js';
import { toSetting } from './row-mapping.js';
import { compiledOnce } from './compiled-once.js';
import type { Selectable } from 'kysely';
import type { SettingsTable } from '../schema.js';

export function createSettingsRepo(ctx: RepoContext): StoreTx['settings'] {
  // Read by every trigger's handling (the place's defaults): compiled once.
  const byScope = compiledOnce(['scope'], (v) =>
    ctx
      .db()
      .selectFrom('settings')
      .selectAll()
      .where('scope', '=', v.scope as string)
      .orderBy('key'),
  );
  return {
    async list(scope) {
      const { rows } = await ctx.db().executeQuery<Selectable<SettingsTable>>(byScope({ scope }));
      return rows.map(toSetting);
    },

    async set(scope, key, value, updatedBy, now) {
      await ctx
        .db()
        .insertInto('settings')
        .values({ scope, key, value, updated_by: updatedBy, updated_at: now })
        .onConflict((oc) =>
          oc.columns(['scope', 'key']).doUpdateSet((eb) => ({
            value: eb.ref('excluded.value'),
            updated_by: eb.ref('excluded.updated_by'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    },

    async unset(scope, key) {
      await ctx
        .db()
        .deleteFrom('settings')
        .where('scope', '=', scope)
        .where('key', '=', key)
        .execute();
    },
  };
}
