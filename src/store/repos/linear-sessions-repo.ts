/**
 * What is remembered of each Linear agent session (migration 016). Every decision
 * that two replicas could both take is one conditional statement: the keep-alive claim
 * compares the last write it read, and taking the Stop mark clears it only where it is set.
 */
import { sql } from 'kysely';
import type { LinearSessions } from '../../core/ports/index.js';
import { rowWhere, type RepoContext } from './repo-context.js';

export function createLinearSessionsRepo(ctx: RepoContext): LinearSessions {
  /** The later of the kept last write and `at`. */
  const laterOf = (at: number) =>
    sql<number>`case when linear_sessions.last_written_at < ${at} then ${at} else linear_sessions.last_written_at end`;
  const fresh = (threadKey: string, at: number) => ({
    thread_key: threadKey,
    working: 0 as const,
    last_written_at: at,
    keep_alive_until: 0,
    stopped: 0 as const,
    updated_at: at,
  });
  return {
    async setWorking(threadKey, working, at) {
      await ctx
        .db()
        .insertInto('linear_sessions')
        .values({ ...fresh(threadKey, at), working: working ? 1 : 0 })
        .onConflict((oc) =>
          oc
            .column('thread_key')
            .doUpdateSet(
              working
                ? { working: 1, last_written_at: laterOf(at), updated_at: at }
                : { working: 0, updated_at: at },
            ),
        )
        .execute();
    },
    async written(threadKey, at) {
      await ctx
        .db()
        .insertInto('linear_sessions')
        .values(fresh(threadKey, at))
        .onConflict((oc) =>
          oc
            .column('thread_key')
            .doUpdateSet({ last_written_at: at, updated_at: at })
            .where('linear_sessions.last_written_at', '<', at),
        )
        .execute();
    },
    async quiet(before, limit) {
      if (limit <= 0) return [];
      const rows = await ctx
        .db()
        .selectFrom('linear_sessions')
        .select(['thread_key', 'last_written_at'])
        .where('working', '=', 1)
        .where('last_written_at', '<', before)
        .orderBy('last_written_at')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        threadKey: r.thread_key,
        lastWrittenAt: Number(r.last_written_at),
      }));
    },
    async claimKeepAlive(threadKey, lastWrittenAt, at, until) {
      const result = await ctx
        .db()
        .updateTable('linear_sessions')
        .set({ last_written_at: at, keep_alive_until: until, updated_at: at })
        .where('thread_key', '=', threadKey)
        .where('working', '=', 1)
        .where('last_written_at', '=', lastWrittenAt)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async keepAliveDone(threadKey) {
      await ctx
        .db()
        .updateTable('linear_sessions')
        .set({ keep_alive_until: 0 })
        .where('thread_key', '=', threadKey)
        .execute();
    },
    async keepAliveUntil(threadKey) {
      const row = await rowWhere(ctx.db(), 'linear_sessions', { thread_key: threadKey });
      return row ? Number(row.keep_alive_until) : 0;
    },
    async markStopped(threadKey, at) {
      await ctx
        .db()
        .insertInto('linear_sessions')
        .values({ ...fresh(threadKey, at), stopped: 1 })
        .onConflict((oc) => oc.column('thread_key').doUpdateSet({ stopped: 1, updated_at: at }))
        .execute();
    },
    async takeStopped(threadKey, at) {
      const result = await ctx
        .db()
        .updateTable('linear_sessions')
        .set({ stopped: 0, updated_at: at })
        .where('thread_key', '=', threadKey)
        .where('stopped', '=', 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
