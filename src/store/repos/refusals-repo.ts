/**
 * Who was refused where, and when last told: one row per (thread, person). A refusal is told
 * when the row is new or older than the window; the one statement (an upsert that updates only
 * a stale row) decides it atomically, so two replicas refusing the same person at once tell
 * them once. Rows older than the window are deleted as refusals come in, so the table holds
 * about the window's refusals, and counting a place's rows says how many it was told in the
 * window (its cap; two replicas racing at the cap may each tell one more).
 */
import type { StoreTx } from '../../core/ports/index.js';
import { sql } from 'kysely';
import type { RepoContext } from './repo-context.js';

export function createRefusalsRepo(ctx: RepoContext): StoreTx['refusals'] {
  return {
    async note(threadKey, person, now, windowMs, place) {
      const db = ctx.db();
      const staleBefore = now - windowMs;
      // Forget whoever was told before the window (read through the told_at index).
      await db.deleteFrom('refusals').where('told_at', '<=', staleBefore).execute();
      if (place !== undefined) {
        // Every row left was told within the window: the place's count of them is its spend.
        const row = await db
          .selectFrom('refusals')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where(sql<string>`substr(thread_key, 1, ${place.prefix.length})`, '=', place.prefix)
          .executeTakeFirst();
        if (Number(row?.n ?? 0) >= place.max) return false;
      }
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
