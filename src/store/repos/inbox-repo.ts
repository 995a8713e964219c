import type { InboxItem, Store, StoreTx } from '../../core/ports/index.js';
import { StoreError } from '../errors.js';
import { rowWhere } from './repo-context.js';
import type { RepoContext } from './repo-context.js';
import { OPEN_STATUSES, toInboxItem, truthy } from './row-mapping.js';
import { compiledOnce } from './compiled-once.js';
import type { CompiledQuery, Selectable } from 'kysely';
import type { Trigger } from '../../core/trigger.js';
import type { InboxTable } from '../schema.js';

/**
 * The statement adding a trigger, compiled once (compiled-once.ts): the ingress adds one for
 * every request, and Slack or GitHub waits for the answer.
 */
function insertTriggerStatement(
  ctx: RepoContext,
): (trigger: Trigger, now: number) => CompiledQuery {
  const statement = compiledOnce(['delivery_id', 'thread_key', 'trigger', 'own_lane', 'now'], (v) =>
    ctx
      .db()
      .insertInto('inbox')
      .values({
        delivery_id: v.delivery_id as string,
        thread_key: v.thread_key as string,
        trigger: v.trigger as string,
        status: 'pending',
        attempts: 0,
        next_attempt_at: v.now as number,
        lease_until: null,
        wait_notice_sent: 0,
        own_lane: v.own_lane as 0 | 1,
        last_error: null,
        created_at: v.now as number,
        updated_at: v.now as number,
      })
      .onConflict((oc) => oc.column('delivery_id').doNothing())
      .returning('id'),
  );
  return (trigger, now) =>
    statement({
      delivery_id: trigger.dedupeKey ?? trigger.deliveryId,
      thread_key: trigger.threadKey,
      trigger: JSON.stringify(trigger),
      own_lane: trigger.anchorsNewThread ? 1 : 0,
      now,
    });
}

export function createInboxRepo(ctx: RepoContext): StoreTx['inbox'] {
  const insertTrigger = insertTriggerStatement(ctx);

  return {
    async add(trigger, now) {
      const result = await ctx.db().executeQuery<{ id: number }>(insertTrigger(trigger, now));
      return result.rows.length > 0;
    },

    async get(id) {
      const row = await rowWhere(ctx.db(), 'inbox', { id });
      return row ? toInboxItem(row) : undefined;
    },

    async complete(id, now) {
      await ctx
        .db()
        .updateTable('inbox')
        .set({ status: 'done', lease_until: null, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    async retryLater(id, at, error, waitNoticeSent) {
      await ctx
        .db()
        .updateTable('inbox')
        .set((eb) => ({
          status: 'pending',
          attempts: eb('attempts', '+', 1),
          next_attempt_at: at,
          lease_until: null,
          last_error: error,
          ...(waitNoticeSent === undefined ? {} : { wait_notice_sent: waitNoticeSent ? 1 : 0 }),
        }))
        .where('id', '=', id)
        .execute();
    },

    async defer(id, now) {
      await ctx
        .db()
        .updateTable('inbox')
        // Waiting in the order the requests came (the deferred claim reads this index).
        .set((eb) => ({
          status: 'deferred',
          lease_until: null,
          next_attempt_at: eb.ref('created_at'),
          updated_at: now,
        }))
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .execute();
    },

    async fail(id, error, now) {
      await ctx
        .db()
        .updateTable('inbox')
        .set({ status: 'failed', lease_until: null, last_error: error, updated_at: now })
        .where('id', '=', id)
        .execute();
    },
  };
}

export function createInboxQueue(ctx: RepoContext): Store['inboxQueue'] {
  // The inbox worker claims whenever a slot frees: compiled once (building Kysely's query
  // tree for this statement cost more than SQLite running it).
  const claimStatement = compiledOnce(['now', 'lease_until', 'limit'], (v) => {
    const db = ctx.db();
    const now = v.now as number;
    const limit = v.limit as number;
    // Per thread only the oldest open item is a candidate, and only when it is pending
    // and due, or claimed by a worker whose lease ran out (crash recovery). One UPDATE
    // statement, so two claimers can never both take an item.
    // An own-lane item (a prompt that starts its own thread, queued under its channel's
    // key) waits only behind the key's other items, never behind another own-lane item;
    // every other item waits behind everything older of its key, own-lane items included
    // (`/agent status` after a prompt finds the run that prompt started). Both rules are a
    // filter on the same (thread_key, id) index range: the access path is unchanged.
    const heads = () =>
      db
        .selectFrom('inbox as h')
        .select('h.id')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('inbox as o')
                .select('o.id')
                .whereRef('o.thread_key', '=', 'h.thread_key')
                .where('o.status', 'in', OPEN_STATUSES)
                .whereRef('o.id', '<', 'h.id')
                .where((eb) => eb.or([eb('h.own_lane', '=', 0), eb('o.own_lane', '=', 0)])),
            ),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('inbox as l')
                .select('l.id')
                .whereRef('l.thread_key', '=', 'h.thread_key')
                .where('l.status', '=', 'processing')
                .where('l.lease_until', '>', now)
                .where((eb) => eb.or([eb('h.own_lane', '=', 0), eb('l.own_lane', '=', 0)])),
            ),
          ),
        )
        .limit(limit);
    // Two arms, each read in index order so the LIMIT stops the scan early: a backlog of
    // thousands costs what one item does (one sorted arm over every open row took
    // milliseconds of a busy event loop). Expired leases first, then what is due, oldest
    // due first (per thread the order is by id all the same: only the head is a candidate).
    let expired = heads()
      .where('h.status', '=', 'processing')
      .where((eb) => eb.or([eb('h.lease_until', 'is', null), eb('h.lease_until', '<=', now)]))
      .orderBy('h.id');
    let due = heads()
      .where('h.status', '=', 'pending')
      .where('h.next_attempt_at', '<=', now)
      .orderBy('h.next_attempt_at')
      .orderBy('h.id');
    if (ctx.kind === 'postgres') {
      expired = expired.forUpdate().skipLocked();
      due = due.forUpdate().skipLocked();
    }
    const candidates = db
      .selectFrom(expired.as('e'))
      .select('e.id')
      .unionAll(db.selectFrom(due.as('d')).select('d.id'))
      .limit(limit);
    return db
      .updateTable('inbox')
      .set({ status: 'processing', lease_until: v.lease_until as number, updated_at: now })
      .where('id', 'in', candidates)
      .returningAll();
  });

  // Whether anything could be claimed at all: what either arm of the claim starts from,
  // without the per-thread order (so never fewer than the claim would take). Most claims find
  // nothing (the worker looks again after every trigger it finishes), and a claim is a write
  // through correlated subqueries, many times dearer than this read (speed-mechanisms.md).
  const anyClaimable = compiledOnce(['now'], (v) =>
    ctx.db().selectNoFrom(({ or, exists, selectFrom }) =>
      or([
        exists(
          selectFrom('inbox')
            .select('id')
            .where('status', '=', 'pending')
            .where('next_attempt_at', '<=', v.now as number),
        ),
        exists(
          selectFrom('inbox')
            .select('id')
            .where('status', '=', 'processing')
            .where((eb) =>
              eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', v.now as number)]),
            ),
        ),
      ]).as('any'),
    ),
  );

  // A deferred trigger is its thread's head already (it was claimed as one and kept its place):
  // the oldest requests first, down the (status, next_attempt_at) index.
  const claimDeferredStatement = compiledOnce(['now', 'lease_until', 'limit'], (v) => {
    const db = ctx.db();
    let oldest = db
      .selectFrom('inbox')
      .select('id')
      .where('status', '=', 'deferred')
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(v.limit as number);
    if (ctx.kind === 'postgres') oldest = oldest.forUpdate().skipLocked();
    return db
      .updateTable('inbox')
      .set({
        status: 'processing',
        lease_until: v.lease_until as number,
        updated_at: v.now as number,
      })
      .where('id', 'in', oldest)
      .where('status', '=', 'deferred')
      .returningAll();
  });

  /** The claimed rows as items, oldest first; an unreadable one is marked failed, not thrown. */
  async function readClaimed(rows: Selectable<InboxTable>[], now: number): Promise<InboxItem[]> {
    const db = ctx.db();
    const items: InboxItem[] = [];
    for (const row of rows.sort((a, b) => Number(a.id) - Number(b.id))) {
      try {
        items.push(toInboxItem(row));
      } catch (err) {
        if (!(err instanceof StoreError) || err.code !== 'corrupt') throw err;
        // A damaged row must not crash the worker or block its thread forever.
        ctx.logger.error(
          { err, inboxId: row.id, deliveryId: row.delivery_id, threadKey: row.thread_key },
          'inbox item is unreadable; marked failed',
        );
        await db
          .updateTable('inbox')
          .set({ status: 'failed', lease_until: null, last_error: err.message, updated_at: now })
          .where('id', '=', row.id)
          .execute();
      }
    }
    return items;
  }

  return {
    async claim(now, leaseMs, limit) {
      if (limit <= 0) return [];
      const db = ctx.db();
      const probe = await db.executeQuery<{ any: unknown }>(anyClaimable({ now }));
      if (!truthy(probe.rows[0]?.any)) return [];
      const { rows } = await db.executeQuery<Selectable<InboxTable>>(
        claimStatement({ now, lease_until: now + leaseMs, limit }),
      );
      return readClaimed(rows, now);
    },

    async claimDeferred(now, leaseMs, limit) {
      if (limit <= 0) return [];
      const { rows } = await ctx
        .db()
        .executeQuery<Selectable<InboxTable>>(
          claimDeferredStatement({ now, lease_until: now + leaseMs, limit }),
        );
      const items = await readClaimed(rows, now);
      return items.map((item) => ({ ...item, resumed: true as const }));
    },

    async renew(id, leaseUntil, now) {
      const result = await ctx
        .db()
        .updateTable('inbox')
        .set({ lease_until: leaseUntil, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async depth() {
      const row = await ctx
        .db()
        .selectFrom('inbox')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', 'in', OPEN_STATUSES)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
