import type { StoreTx } from '../../core/ports/index.js';
import { rowWhere } from './repo-context.js';
import type { RepoContext } from './repo-context.js';
import { toThread } from './row-mapping.js';

/** Aliases are resolved a few hops at most, so a cycle written by mistake cannot loop. */
const MAX_ALIAS_HOPS = 5;

export function createThreadsRepo(ctx: RepoContext): StoreTx['threads'] {
  async function resolve(key: string): Promise<string> {
    let current = key;
    for (let hop = 0; hop < MAX_ALIAS_HOPS; hop += 1) {
      const row = await rowWhere(ctx.db(), 'thread_aliases', { alias_key: current });
      if (!row || row.thread_key === current) return current;
      current = row.thread_key;
    }
    return current;
  }

  return {
    async get(threadKey) {
      const row = await rowWhere(ctx.db(), 'threads', { thread_key: threadKey });
      return row ? toThread(row) : undefined;
    },

    async upsert(thread, now) {
      await ctx
        .db()
        .insertInto('threads')
        .values({
          thread_key: thread.threadKey,
          platform: thread.platform,
          current_run_id: thread.currentRunId ?? null,
          started_by: thread.startedBy ?? null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.column('thread_key').doUpdateSet((eb) => ({
            // The current run changes only when one is given; the first starter is kept.
            current_run_id: eb.fn.coalesce('excluded.current_run_id', 'threads.current_run_id'),
            started_by: eb.fn.coalesce('threads.started_by', 'excluded.started_by'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    },

    async addAlias(aliasKey, threadKey) {
      const target = await resolve(threadKey);
      if (target === aliasKey) return;
      await ctx
        .db()
        .insertInto('thread_aliases')
        .values({ alias_key: aliasKey, thread_key: target })
        .onConflict((oc) =>
          oc
            .column('alias_key')
            .doUpdateSet((eb) => ({ thread_key: eb.ref('excluded.thread_key') })),
        )
        .execute();
    },

    resolve,
  };
}
