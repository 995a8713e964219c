/**
 * Who was refused where, and when last told: one row per (thread, person). A refusal is told
 * when the row is new or older than the window; the one statement (an upsert that updates only
 * a stale row) decides it atomically, so two replicas refusing the same person at once tell
 * them once. Rows older than the window are deleted as refusals come in, so the table holds
 * about the window's refusals.
 */
import type { StoreTx } from '../../core/ports/index.js';
import type { RepoContext } from './repo-context.js';

export function createRefusalsRepo(ctx: RepoContext): StoreTx['refusals'] {
  return {
    async note(threadKey, person, now, windowMs) {
      const db = ctx.db();
      const staleBefore = now - windowMs;
      // Forget whoever was told before the window (read through the told_at index).
      await db.deleteFrom('refusals').where('told_at', '<=', staleBefore).execute();
      const told = await db
        .insertInto('refusals')
        .values({ thread_key: threadKey, person: person.toLowerCase(), told_at: now })
        .onConflict((oc) =>
          oc
            .columns(['thread_key', 'person'])
            .doUpdateSet({ told_at: now })
            .where('refusals.told_at', '<=', staleBefore),
        )
        .returning('told_at')
        .executeTakeFirst();
      return told !== undefined;
    },
  };
}
