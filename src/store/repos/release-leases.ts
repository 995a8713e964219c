/**
 * Release every claim (and named lease) left by a previous process (SQLite: one replica, so at start-up no
 * other worker can hold one). An inbox item a crashed process was handling goes back to
 * pending with its interrupted attempt counted, so the next handling reconciles before
 * creating (a create may have reached the service); so does a notification, so that its next
 * delivery looks for a message the interrupted one may have posted.
 */
import { sql } from 'kysely';
import type { RepoContext } from './repo-context.js';

export function createLeaseRelease(
  ctx: RepoContext,
): (now: number) => Promise<{ inbox: number; outbox: number }> {
  return async (now) => {
    const db = ctx.db();
    const inbox = await db
      .updateTable('inbox')
      .set({
        status: 'pending',
        lease_until: null,
        attempts: sql<number>`attempts + 1`,
        updated_at: now,
      })
      .where('status', '=', 'processing')
      .executeTakeFirst();
    const outbox = await db
      .updateTable('outbox')
      .set({ lease_until: null, attempts: sql<number>`attempts + 1`, updated_at: now })
      .where('status', '=', 'pending')
      .where('lease_until', 'is not', null)
      .executeTakeFirst();
    // The tracking lease too: the process that held it is gone.
    await db.updateTable('leases').set({ lease_until: 0 }).execute();
    return { inbox: Number(inbox.numUpdatedRows), outbox: Number(outbox.numUpdatedRows) };
  };
}
