/**
 * Descendants of tracked runs in a BLOCKED episode, told once per episode (migration 014),
 * each episode numbered so the answers to its question are bound to it (migration 018).
 */
import { sql } from 'kysely';
import type { Store } from '../../core/ports/index.js';
import { rowWhere } from './repo-context.js';
import type { RepoContext } from './repo-context.js';

export function createBlockedDescendantsRepo(ctx: RepoContext): Store['blockedDescendants'] {
  return {
    async enter(runId, ancestorRunId, at) {
      // One statement: a new row, or a row whose last episode ended, starts an episode.
      const row = await ctx
        .db()
        .insertInto('blocked_descendants')
        .values({
          run_id: runId,
          ancestor_run_id: ancestorRunId,
          blocked: 1,
          updated_at: at,
          version: 1,
          review_status: null,
          decided_by: null,
        })
        .onConflict((oc) =>
          oc
            .column('run_id')
            .doUpdateSet({
              ancestor_run_id: ancestorRunId,
              blocked: 1,
              updated_at: at,
              version: sql<number>`blocked_descendants.version + 1`,
              review_status: null,
              decided_by: null,
            })
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
    async get(runId) {
      const row = await rowWhere(ctx.db(), 'blocked_descendants', { run_id: runId });
      if (row === undefined) return undefined;
      return {
        runId: row.run_id,
        ancestorRunId: row.ancestor_run_id,
        blocked: Number(row.blocked) === 1,
        version: Number(row.version),
        ...(row.review_status === null ? {} : { status: row.review_status }),
        ...(row.decided_by === null ? {} : { decidedBy: row.decided_by }),
      };
    },
    async answer(runId, version, status, decidedBy) {
      const result = await ctx
        .db()
        .updateTable('blocked_descendants')
        .set({ review_status: status, decided_by: decidedBy })
        .where('run_id', '=', runId)
        .where('version', '=', version)
        .where('blocked', '=', 1)
        .where('review_status', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
