import { sql } from 'kysely';
import type { OutboxItem, Store, StoreTx } from '../../core/ports/index.js';
import { StoreError } from '../errors.js';
import type { RepoContext } from './repo-context.js';
import { toOutboxItem } from './row-mapping.js';

export function createOutboxRepo(ctx: RepoContext): StoreTx['outbox'] {
  return {
    async enqueue(payload, now) {
      const row = await ctx
        .db()
        .insertInto('outbox')
        .values({
          thread_key: payload.destination.threadKey,
          payload: JSON.stringify(payload),
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          lease_until: null,
          last_error: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
  };
}

export function createOutboxQueue(ctx: RepoContext): Store['outboxQueue'] {
  return {
    async claim(now, leaseMs, limit, filter) {
      if (limit <= 0) return [];
      const db = ctx.db();
      // Per thread only the oldest pending notification is a candidate (order per thread is
      // kept), and only when it is due and not leased by a live claim.
      let heads = db
        .selectFrom('outbox as h')
        .select('h.id')
        .where('h.status', '=', 'pending')
        .where('h.next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('h.lease_until', 'is', null), eb('h.lease_until', '<=', now)]))
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('outbox as o')
                .select('o.id')
                .whereRef('o.thread_key', '=', 'h.thread_key')
                .where('o.status', '=', 'pending')
                .where((eb) =>
                  eb.or([eb('o.id', '<', eb.ref('h.id')), eb('o.lease_until', '>', now)]),
                ),
            ),
          ),
        )
        // Oldest due first, read in the (status, next_attempt_at) index's order so the LIMIT
        // stops the scan early; sorting every pending row by id cost milliseconds of a busy
        // event loop at a backlog of thousands. Per thread the order stays by id: only the
        // thread's oldest pending notification is a candidate.
        .orderBy('h.next_attempt_at')
        .orderBy('h.id')
        .limit(limit);
      if (filter?.threadKeyPrefix) {
        // A thread's notifications share its key, hence its prefix: order per thread holds.
        const prefix = filter.threadKeyPrefix;
        heads = heads.where(
          sql<string>`substr(h.thread_key, 1, ${sql.lit(prefix.length)})`,
          '=',
          prefix,
        );
      }
      if (ctx.kind === 'postgres') heads = heads.forUpdate().skipLocked();

      const rows = await db
        .updateTable('outbox')
        // A lease that ran out means a claim that never finished (another replica died):
        // count it as an attempt, so the next delivery checks what that one may have posted.
        .set({
          lease_until: now + leaseMs,
          attempts: sql<number>`case when lease_until is null then attempts else attempts + 1 end`,
          updated_at: now,
        })
        .where('id', 'in', heads)
        .returningAll()
        .execute();

      const items: OutboxItem[] = [];
      for (const row of rows.sort((a, b) => Number(a.id) - Number(b.id))) {
        try {
          items.push(toOutboxItem(row));
        } catch (err) {
          if (!(err instanceof StoreError) || err.code !== 'corrupt') throw err;
          ctx.logger.error(
            { err, outboxId: row.id, threadKey: row.thread_key },
            'outbox item is unreadable; parked',
          );
          await db
            .updateTable('outbox')
            .set({ status: 'parked', lease_until: null, last_error: err.message, updated_at: now })
            .where('id', '=', row.id)
            .execute();
        }
      }
      return items;
    },

    async delivered(id, now) {
      await ctx
        .db()
        .updateTable('outbox')
        .set({ status: 'delivered', lease_until: null, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    async retryLater(id, at, error) {
      await ctx
        .db()
        .updateTable('outbox')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          next_attempt_at: at,
          lease_until: null,
          last_error: error,
        }))
        .where('id', '=', id)
        .execute();
    },

    async park(id, error, now) {
      await ctx
        .db()
        .updateTable('outbox')
        .set({ status: 'parked', lease_until: null, last_error: error, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    async depth() {
      const row = await ctx
        .db()
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async list(filter) {
      let query = ctx.db().selectFrom('outbox').selectAll().orderBy('id');
      if (filter?.threadKey !== undefined) query = query.where('thread_key', '=', filter.threadKey);
      if (filter?.status !== undefined) query = query.where('status', '=', filter.status);
      const rows = await query.execute();
      return rows.map(toOutboxItem);
    },
  };
}
