import { sql } from 'kysely';
import type { CompiledQuery, Selectable } from 'kysely';
import { compiledOnce } from './compiled-once.js';
import type { OutboxItem, Store, StoreTx } from '../../core/ports/index.js';
import { StoreError } from '../errors.js';
import type { RepoContext } from './repo-context.js';
import { toOutboxItem, toOutboxPayload, truthy } from './row-mapping.js';
import type { OutboxTable } from '../schema.js';

export function createOutboxRepo(ctx: RepoContext): StoreTx['outbox'] {
  // Every notice of every run is queued here, most inside the transaction of a state change.
  const insertNotice = compiledOnce(['thread_key', 'payload', 'low_priority', 'now'], (v) =>
    ctx
      .db()
      .insertInto('outbox')
      .values({
        thread_key: v.thread_key as string,
        payload: v.payload as string,
        status: 'pending',
        attempts: 0,
        next_attempt_at: v.now as number,
        lease_until: null,
        last_error: null,
        created_at: v.now as number,
        updated_at: v.now as number,
        low_priority: v.low_priority as number,
      })
      .returning('id'),
  );
  return {
    async enqueue(payload, now) {
      const { rows } = await ctx.db().executeQuery<{ id: number | string }>(
        insertNotice({
          thread_key: payload.destination.threadKey,
          payload: JSON.stringify(payload),
          low_priority: payload.lane === 'low' ? 1 : 0,
          now,
        }),
      );
      const row = rows[0];
      if (row === undefined) throw new StoreError('unknown', 'the outbox insert returned no id');
      return Number(row.id);
    },
  };
}

type ClaimValue = 'now' | 'lease_until' | 'limit' | 'prefix' | 'low_priority';
type Lane = 'normal' | 'low' | undefined;
type Statement = (v: Record<ClaimValue, unknown>) => CompiledQuery;

/**
 * A statement built and compiled once per thread-key prefix length and lane (each outbox lane
 * claims many times a second; building Kysely's query tree each time cost more than SQLite).
 */
function perShape(
  base: readonly ClaimValue[],
  build: (
    prefixLength: number | undefined,
    lane: Lane,
    v: Readonly<Record<ClaimValue, unknown>>,
  ) => { compile(): CompiledQuery },
): (prefixLength: number | undefined, lane: Lane) => Statement {
  const byShape = new Map<string, Statement>();
  return (prefixLength, lane) => {
    const shape = `${prefixLength ?? ''}:${lane ?? ''}`;
    let statement = byShape.get(shape);
    if (statement) return statement;
    const names = [...base];
    if (prefixLength !== undefined) names.push('prefix');
    if (lane !== undefined) names.push('low_priority');
    statement = compiledOnce<ClaimValue>(names, (v) => build(prefixLength, lane, v));
    byShape.set(shape, statement);
    return statement;
  };
}

/** The lane's notifications that are due and not leased by a live claim (`h`). */
function dueUnleased(
  ctx: RepoContext,
  prefixLength: number | undefined,
  lane: Lane,
  v: Readonly<Record<ClaimValue, unknown>>,
) {
  const now = v.now as number;
  let heads = ctx
    .db()
    .selectFrom('outbox as h')
    .select('h.id')
    .where('h.status', '=', 'pending')
    .where('h.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('h.lease_until', 'is', null), eb('h.lease_until', '<=', now)]));
  if (prefixLength !== undefined) {
    // A thread's notifications share its key, hence its prefix: order per thread holds.
    heads = heads.where(
      sql<string>`substr(h.thread_key, 1, ${sql.lit(prefixLength)})`,
      '=',
      v.prefix as string,
    );
  }
  if (lane !== undefined) heads = heads.where('h.low_priority', '=', v.low_priority as number);
  return heads;
}

/** The claim statement of a lane. */
function claimStatements(ctx: RepoContext) {
  return perShape(['now', 'lease_until', 'limit'], (prefixLength, lane, v) => {
    const now = v.now as number;
    // Per thread only the oldest pending notification is a candidate (order per thread is
    // kept), and only when it is due and not leased by a live claim.
    let heads = dueUnleased(ctx, prefixLength, lane, v)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('outbox as o')
              .select('o.id')
              .whereRef('o.thread_key', '=', 'h.thread_key')
              // Order is kept per thread within a lane: a refusal never holds up a notice.
              .whereRef('o.low_priority', '=', 'h.low_priority')
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
      .limit(v.limit as number);
    if (ctx.kind === 'postgres') heads = heads.forUpdate().skipLocked();
    return (
      ctx
        .db()
        .updateTable('outbox')
        // A lease that ran out means a claim that never finished (another replica died):
        // count it as an attempt, so the next delivery checks what that one may have posted.
        .set({
          lease_until: v.lease_until as number,
          attempts: sql<number>`case when lease_until is null then attempts else attempts + 1 end`,
          updated_at: now,
        })
        .where('id', 'in', heads)
        .returningAll()
        // What is queued next behind each claimed notification in its thread and lane: the
        // delivery asks it of a status (moot-status.ts), and reading it here spares a
        // statement per delivery (docs/decisions/speed-mechanisms.md).
        .returning((eb) =>
          eb
            .selectFrom('outbox as n')
            .select('n.payload')
            .whereRef('n.thread_key', '=', 'outbox.thread_key')
            .whereRef('n.low_priority', '=', 'outbox.low_priority')
            .where('n.status', '=', 'pending')
            .whereRef('n.id', '>', 'outbox.id')
            .orderBy('n.id')
            .limit(1)
            .as('next_payload'),
        )
    );
  });
}

/**
 * Whether a claim of this shape could take anything: a due notification not leased by a live
 * claim, without the per-thread order (so never fewer than the claim would take). Most claims
 * find nothing (a lane looks again after each delivery), and a claim is a write through a
 * correlated subquery, many times dearer than this read (speed-mechanisms.md).
 */
function probeStatements(ctx: RepoContext) {
  return perShape(['now'], (prefixLength, lane, v) =>
    ctx
      .db()
      .selectNoFrom(({ exists }) => exists(dueUnleased(ctx, prefixLength, lane, v)).as('any')),
  );
}

/** The claimed item with what is queued behind it; one that cannot be read stays unknown. */
function withNext(item: OutboxItem, nextPayload: string | null | undefined): OutboxItem {
  if (nextPayload === undefined) return item;
  if (nextPayload === null) return { ...item, next: null };
  try {
    return { ...item, next: toOutboxPayload(nextPayload, `outbox item after ${item.id}`) };
  } catch {
    return item;
  }
}

export function createOutboxQueue(ctx: RepoContext): Store['outboxQueue'] {
  const claimStatement = claimStatements(ctx);
  const probeStatement = probeStatements(ctx);
  const nextInThread = compiledOnce(['thread_key', 'low_priority', 'id'], (v) =>
    ctx
      .db()
      .selectFrom('outbox')
      .selectAll()
      .where('thread_key', '=', v.thread_key as string)
      .where('low_priority', '=', v.low_priority as number)
      .where('status', '=', 'pending')
      .where('id', '>', v.id as number)
      .orderBy('id')
      .limit(1),
  );
  const markDelivered = compiledOnce(['id', 'now'], (v) =>
    ctx
      .db()
      .updateTable('outbox')
      .set({ status: 'delivered', lease_until: null, updated_at: v.now as number })
      .where('id', '=', v.id as number),
  );
  return {
    async claim(now, leaseMs, limit, filter) {
      if (limit <= 0) return [];
      const prefix = filter?.threadKeyPrefix;
      const lane = filter?.lane;
      const values = {
        now,
        lease_until: now + leaseMs,
        limit,
        prefix,
        low_priority: lane === 'low' ? 1 : 0,
      };
      const probe = await ctx
        .db()
        .executeQuery<{ any: unknown }>(probeStatement(prefix?.length, lane)(values));
      if (!truthy(probe.rows[0]?.any)) return [];
      const { rows } = await ctx
        .db()
        .executeQuery<Selectable<OutboxTable> & { next_payload: string | null }>(
          claimStatement(prefix?.length, lane)(values),
        );
      const items: OutboxItem[] = [];
      for (const row of rows.sort((a, b) => Number(a.id) - Number(b.id))) {
        try {
          items.push(withNext(toOutboxItem(row), row.next_payload));
        } catch (err) {
          if (!(err instanceof StoreError) || err.code !== 'corrupt') throw err;
          ctx.logger.error(
            { err, outboxId: row.id, threadKey: row.thread_key },
            'outbox item is unreadable; parked',
          );
          await ctx
            .db()
            .updateTable('outbox')
            .set({ status: 'parked', lease_until: null, last_error: err.message, updated_at: now })
            .where('id', '=', row.id)
            .execute();
        }
      }
      return items;
    },

    async delivered(id, now) {
      await ctx.db().executeQuery(markDelivered({ id, now }));
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
      // The attempt that gave up counts: a parked row says how many deliveries were tried.
      await ctx
        .db()
        .updateTable('outbox')
        .set((eb) => ({
          status: 'parked',
          attempts: eb('attempts', '+', 1),
          lease_until: null,
          last_error: error,
          updated_at: now,
        }))
        .where('id', '=', id)
        .execute();
    },

    async next(item) {
      const row = await ctx.db().executeQuery<Selectable<OutboxTable>>(
        nextInThread({
          thread_key: item.threadKey,
          low_priority: item.payload.lane === 'low' ? 1 : 0,
          id: item.id,
        }),
      );
      const found = row.rows[0];
      return found === undefined ? undefined : toOutboxItem(found);
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
