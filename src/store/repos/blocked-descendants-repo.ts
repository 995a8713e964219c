/** Descendants of tracked runs in a BLOCKED episode, told once per episode (migration 014). */
import type { Store } from '../../core/ports/index.js';
import type { RepoContext } from './repo-context.js';

export function createBlockedDescendantsRepo(ctx: RepoContext): Store['blockedDescendants'] {
  return {
    async enter(runId, ancestorRunId, at) {
      // One statement: a new row, or a row whose last episode ended, starts an episode.
      const row = await ctx
        .db()
        .insertInto('blocked_descendants')
        .values({ run_id: runId, ancestor_run_id: ancestorRunId, blocked: 1, updated_at: at })
        .onConflict((oc) =>
          oc
            .column('run_id')
            .doUpdateSet({ ancestor_run_id: ancestorRunId, blocked: 1, updated_at: at })
            .where('blocked_descendants.blocked', '=', 0),
        )
        .returning('run_id')
        .executeTakeFirst();
      return row !== undefined;
    },
    async leave(runIds, at) {
      if (runIds.length === 0) return;
      await ctx
        .db()
        .updateTable('blocked_descendants')
        .set({ blocked: 0, updated_at: at })
        .where('run_id', 'in', [...runIds])
        .where('blocked', '=', 1)
        .execute();
    },
  };
}
