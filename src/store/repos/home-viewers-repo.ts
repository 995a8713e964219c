/** Who opened the Slack App Home tab, and when last (migration 011). */
import type { Store } from '../../core/ports/index.js';
import type { RepoContext } from './repo-context.js';

export function createHomeViewersRepo(ctx: RepoContext): Store['homeViewers'] {
  return {
    async opened(teamId, userId, at) {
      await ctx
        .db()
        .insertInto('home_viewers')
        .values({ team_id: teamId, user_id: userId, opened_at: at })
        .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ opened_at: at }))
        .execute();
    },
    async openedAt(teamId, userId) {
      const row = await ctx
        .db()
        .selectFrom('home_viewers')
        .select('opened_at')
        .where('team_id', '=', teamId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row === undefined ? undefined : Number(row.opened_at);
    },
  };
}
