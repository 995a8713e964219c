/**
 * Finished queue rows are kept a while (a redelivered event is recognised by its delivery
 * id; an operator can look at what failed), then deleted: the inbox holds what people wrote
 * and the outbox what was posted, which the database should not keep for ever. A request's
 * "Starting…" message record goes after as long: it matters only while the request is handled
 * and retried (minutes) and until its run takes the message over.
 */
import type { RepoContext } from './repo-context.js';

const FINISHED = { inbox: ['done', 'failed'], outbox: ['delivered', 'parked'] } as const;

export interface PrunedCounts {
  inbox: number;
  outbox: number;
  startMessages: number;
}

export function createPruneFinished(
  ctx: RepoContext,
): (before: number, limit: number) => Promise<PrunedCounts> {
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
  // Rows are read in insertion order (the oldest first), so the LIMIT ends the scan early.
  const pruneStartMessages = async (before: number, limit: number) => {
    const db = ctx.db();
    const oldest = db
      .selectFrom('start_messages')
      .select('request_id')
      .where('created_at', '<', before)
      .limit(limit);
    const result = await db
      .deleteFrom('start_messages')
      .where('request_id', 'in', oldest)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  };
  return async (before, limit) => {
    if (limit <= 0) return { inbox: 0, outbox: 0, startMessages: 0 };
    return {
      inbox: await prune('inbox', before, limit),
      outbox: await prune('outbox', before, limit),
      startMessages: await pruneStartMessages(before, limit),
    };
  };
}
