/**
 * Finished queue rows are kept a while (a redelivered event is recognised by its delivery
 * id; an operator can look at what failed), then deleted: the inbox holds what people wrote
 * and the outbox what was posted, which the database should not keep for ever.
 */
import type { RepoContext } from './repo-context.js';

const FINISHED = { inbox: ['done', 'failed'], outbox: ['delivered', 'parked'] } as const;

export function createPruneFinished(
  ctx: RepoContext,
): (before: number, limit: number) => Promise<{ inbox: number; outbox: number }> {
  const prune = async (table: 'inbox' | 'outbox', before: number, limit: number) => {
    const db = ctx.db();
    // A finished row became due before it finished, so `next_attempt_at < before` holds for
    // every row that qualifies; it bounds the scan of the (status, next_attempt_at) index.
    const oldest = db
      .selectFrom(table)
      .select('id')
      .where('status', 'in', [...FINISHED[table]])
      .where('next_attempt_at', '<', before)
      .where('updated_at', '<', before)
      .limit(limit);
    const result = await db.deleteFrom(table).where('id', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  };
  return async (before, limit) => {
    if (limit <= 0) return { inbox: 0, outbox: 0 };
    return {
      inbox: await prune('inbox', before, limit),
      outbox: await prune('outbox', before, limit),
    };
  };
}
