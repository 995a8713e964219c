/**
 * Finished runs and the threads they lived in are kept a while (a reply in the thread steers
 * the run; the console lists them), then deleted: a run no longer tracked whose record was
 * last written before `before` goes with its state history; a thread last written before then
 * that has no run left and no trigger or notification waiting goes with its aliases and the
 * recorded ids of the reactions the relay added there. A tracked run (live, or ended but
 * not yet told) is never touched. A descendant's BLOCKED-episode record (blocked_descendants)
 * last written before `before` goes once its episode ended or the run it was told in is no
 * longer tracked: either way it decides nothing more (a later BLOCKED state starts a new
 * episode, as it would after the episode's end).
 */
import type { RepoContext } from './repo-context.js';
import { OPEN_STATUSES } from './row-mapping.js';

export interface PrunedRuns {
  runs: number;
  threads: number;
  blockedDescendants: number;
}

export function createPruneRuns(
  ctx: RepoContext,
): (before: number, limit: number) => Promise<PrunedRuns> {
  const pruneRuns = async (before: number, limit: number) => {
    const db = ctx.db();
    // Oldest first through the (updated_at) index, so the LIMIT ends the scan early. The
    // same selection twice in one transaction: the history first, then the runs.
    const oldest = () =>
      db
        .selectFrom('runs')
        .select('run_id')
        .where('updated_at', '<', before)
        .where('tracked', '=', 0)
        .orderBy('updated_at')
        .limit(limit);
    await db.deleteFrom('run_states').where('run_id', 'in', oldest()).execute();
    const result = await db.deleteFrom('runs').where('run_id', 'in', oldest()).executeTakeFirst();
    return Number(result.numDeletedRows);
  };

  const pruneThreads = async (before: number, limit: number) => {
    const db = ctx.db();
    const emptied = () =>
      db
        .selectFrom('threads as t')
        .select('t.thread_key')
        .where('t.updated_at', '<', before)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('runs as r')
                .select('r.run_id')
                .whereRef('r.thread_key', '=', 't.thread_key'),
            ),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('inbox as i')
                .select('i.id')
                .whereRef('i.thread_key', '=', 't.thread_key')
                .where('i.status', 'in', OPEN_STATUSES),
            ),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('outbox as o')
                .select('o.id')
                .whereRef('o.thread_key', '=', 't.thread_key')
                .where('o.status', 'in', OPEN_STATUSES),
            ),
          ),
        )
        .limit(limit);
    await db.deleteFrom('thread_aliases').where('thread_key', 'in', emptied()).execute();
    await db.deleteFrom('reaction_ids').where('thread_key', 'in', emptied()).execute();
    await db.deleteFrom('linear_sessions').where('thread_key', 'in', emptied()).execute();
    const result = await db
      .deleteFrom('threads')
      .where('thread_key', 'in', emptied())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  };

  const pruneBlockedDescendants = async (before: number, limit: number) => {
    const db = ctx.db();
    const done = db
      .selectFrom('blocked_descendants as b')
      .select('b.run_id')
      .where('b.updated_at', '<', before)
      .where((eb) =>
        eb.or([
          eb('b.blocked', '=', 0),
          eb.not(
            eb.exists(
              eb
                .selectFrom('runs as r')
                .select('r.run_id')
                .whereRef('r.run_id', '=', 'b.ancestor_run_id')
                .where('r.tracked', '=', 1),
            ),
          ),
        ]),
      )
      .limit(limit);
    const result = await db
      .deleteFrom('blocked_descendants')
      .where('run_id', 'in', done)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  };

  return async (before, limit) => {
    if (limit <= 0) return { runs: 0, threads: 0, blockedDescendants: 0 };
    const runs = await pruneRuns(before, limit);
    const threads = await pruneThreads(before, limit);
    const blockedDescendants = await pruneBlockedDescendants(before, limit);
    return { runs, threads, blockedDescendants };
  };
}
