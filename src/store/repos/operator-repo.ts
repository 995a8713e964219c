/**
 * The operator's console queries (core/ports/operator-queries.ts): filtered run listings, a
 * run's state history and queue items, the queues' health, and Retry/Discard of given-up
 * items. Every write is guarded by the item's given-up status, so a stale page cannot touch
 * an item a worker has since taken.
 */
import { sql, type Selectable } from 'kysely';
import type { OperatorQueries, RunRecord } from '../../core/ports/index.js';
import { StoreError } from '../errors.js';
import type { Database } from '../schema.js';
import type { RepoContext } from './repo-context.js';
import { OPEN_STATUSES, toInboxItem, toOutboxItem, toRun } from './row-mapping.js';

const TABLE = { notification: 'outbox', trigger: 'inbox' } as const;
const GIVEN_UP = { notification: 'parked', trigger: 'failed' } as const;

/** Rows whose JSON is damaged are skipped in listings (the workers report them). */
function readable<R, T>(rows: R[], map: (row: R) => T): T[] {
  const out: T[] = [];
  for (const row of rows) {
    try {
      out.push(map(row));
    } catch (err) {
      if (!(err instanceof StoreError) || err.code !== 'corrupt') throw err;
    }
  }
  return out;
}

/** `%` and `_` match themselves in a LIKE pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createOperatorQueries(ctx: RepoContext): OperatorQueries {
  const count = async (table: 'inbox' | 'outbox', statuses: string[]) => {
    const row = await ctx
      .db()
      .selectFrom(table)
      .select((eb) => [
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.min('created_at').as('oldest'),
      ])
      .where('status', 'in', statuses)
      .executeTakeFirstOrThrow();
    return { n: Number(row.n), oldest: row.oldest === null ? undefined : Number(row.oldest) };
  };
  /** The newest `limit` items of `table` in `status`. */
  const newest = async <T extends 'inbox' | 'outbox'>(table: T, status: string, limit: number) =>
    (await ctx
      .db()
      .selectFrom(table as 'inbox' | 'outbox')
      .selectAll()
      .where('status', '=', status)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()) as Selectable<Database[T]>[];

  return {
    async listRuns(filter) {
      let query = ctx.db().selectFrom('runs').selectAll();
      // By cost across all runs (not only one page): those without a reported cost last.
      if (filter.sort === 'cost')
        query = query
          .orderBy(sql`case when cost_micro_usd is null then 1 else 0 end`)
          .orderBy('cost_micro_usd', 'desc');
      query = query
        .orderBy('created_at', 'desc')
        .orderBy('run_id', 'desc')
        .limit(Math.max(1, Math.min(filter.limit, 500)));
      if (filter.offset !== undefined && filter.offset > 0)
        query = query.offset(Math.floor(filter.offset));
      if (filter.state) query = query.where('state', '=', filter.state);
      if (filter.platform) query = query.where('platform', '=', filter.platform);
      if (filter.createdBefore !== undefined)
        query = query.where('created_at', '<', filter.createdBefore);
      if (filter.place) {
        const place = filter.place;
        query = query.where((eb) =>
          eb.or([
            eb('thread_key', '=', place),
            eb('thread_key', 'like', sql<string>`${`${likeEscape(place)}%`} escape '\\'`),
          ]),
        );
      }
      if (filter.person) {
        // The requester column is JSON `{id, name?}`: match the id exactly or the text.
        const person = filter.person.toLowerCase();
        query = query.where(
          sql<string>`lower(requester)`,
          'like',
          sql<string>`${`%${likeEscape(person)}%`} escape '\\'`,
        );
      }
      const rows = await query.execute();
      const runs = readable(rows, toRun);
      if (!filter.person) return runs;
      const person = filter.person.toLowerCase();
      return runs.filter(
        (r: RunRecord) =>
          r.requester.id.toLowerCase() === person ||
          (r.requester.name ?? '').toLowerCase().includes(person),
      );
    },

    async spendByThread(since) {
      const rows = await ctx
        .db()
        .selectFrom('runs')
        .select((eb) => [
          'thread_key',
          sql<string | number | null>`sum(cost_micro_usd)`.as('micros'),
          eb.fn.countAll<number | string>().as('n'),
          eb.fn.count<number | string>('cost_micro_usd').as('costed'),
        ])
        .where('created_at', '>=', since)
        .groupBy('thread_key')
        .execute();
      return rows.map((r) => ({
        threadKey: r.thread_key,
        spentUsd: r.micros === null ? 0 : Number(r.micros) / 1e6,
        runs: Number(r.n),
        costed: Number(r.costed),
      }));
    },

    async stateHistory(runId) {
      const rows = await ctx
        .db()
        .selectFrom('run_states')
        .select(['state', 'at'])
        .where('run_id', '=', runId)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ state: r.state, at: Number(r.at) }));
    },

    async threadItems(threadKeys, limit) {
      if (threadKeys.length === 0) return { triggers: [], notifications: [] };
      const keys = [...threadKeys];
      const inbox = await ctx
        .db()
        .selectFrom('inbox')
        .selectAll()
        .where('thread_key', 'in', keys)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      const outbox = await ctx
        .db()
        .selectFrom('outbox')
        .selectAll()
        .where('thread_key', 'in', keys)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return {
        triggers: readable(inbox, toInboxItem),
        notifications: readable(outbox, toOutboxItem),
      };
    },

    async triggerOfRequest(requestId) {
      const colon = requestId.indexOf(':');
      if (colon < 0) return undefined;
      const platform = requestId.slice(0, colon);
      const rows = await ctx
        .db()
        .selectFrom('inbox')
        .selectAll()
        .where('delivery_id', '=', requestId.slice(colon + 1))
        .execute();
      return readable(rows, toInboxItem).find((item) => item.trigger.platform === platform);
    },

    async aliasesOf(threadKey) {
      const rows = await ctx
        .db()
        .selectFrom('thread_aliases')
        .select('alias_key')
        .where('thread_key', '=', threadKey)
        .execute();
      return [threadKey, ...rows.map((r) => r.alias_key).filter((k) => k !== threadKey)];
    },

    async queueHealth() {
      // A deferred trigger (its first sign out, waiting for the service lane) waits too.
      const waiting = await count('inbox', ['pending', 'deferred']);
      const processing = await count('inbox', ['processing']);
      const failed = await count('inbox', ['failed']);
      const pending = await count('outbox', ['pending']);
      const parked = await count('outbox', ['parked']);
      const inboxOldest = [waiting.oldest, processing.oldest].filter(
        (x): x is number => x !== undefined,
      );
      return {
        inbox: {
          waiting: waiting.n,
          processing: processing.n,
          failed: failed.n,
          ...(inboxOldest.length ? { oldestWaitingAt: Math.min(...inboxOldest) } : {}),
        },
        outbox: {
          waiting: pending.n,
          parked: parked.n,
          ...(pending.oldest === undefined ? {} : { oldestWaitingAt: pending.oldest }),
        },
      };
    },

    parkedNotifications: async (limit) =>
      readable(await newest('outbox', 'parked', limit), toOutboxItem),
    failedTriggers: async (limit) => readable(await newest('inbox', 'failed', limit), toInboxItem),

    async retry(kind, id, now) {
      const result = await ctx
        .db()
        .updateTable(TABLE[kind])
        .set({
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          lease_until: null,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('status', '=', GIVEN_UP[kind])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async discard(kind, id) {
      const result = await ctx
        .db()
        .deleteFrom(TABLE[kind])
        .where('id', '=', id)
        .where('status', '=', GIVEN_UP[kind])
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async changeStamp() {
      const db = ctx.db();
      // One aggregate per statement: each is then one step down its index.
      const written = await db
        .selectFrom('runs')
        .select((eb) => eb.fn.max('updated_at').as('at'))
        .executeTakeFirstOrThrow();
      const created = await db
        .selectFrom('runs')
        .select((eb) => eb.fn.max('created_at').as('at'))
        .executeTakeFirstOrThrow();
      // Only the open and given-up rows are counted and summed (few; the (status, …) index finds
      // them), never the delivered or done ones (many); a new row shows as a new largest id.
      const queue = async (table: 'inbox' | 'outbox') => {
        const counts = await db
          .selectFrom(table)
          .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
          .where('status', 'in', [...OPEN_STATUSES, 'parked', 'failed'])
          .groupBy('status')
          .orderBy('status')
          .execute();
        const open = await db
          .selectFrom(table)
          .select((eb) => [
            eb.fn.sum<number | string>('attempts').as('tries'),
            eb.fn.max('updated_at').as('at'),
          ])
          .where('status', 'in', OPEN_STATUSES)
          .executeTakeFirstOrThrow();
        const last = await db
          .selectFrom(table)
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow();
        const byStatus = counts.map((r) => `${r.status}:${r.n}`).join(',');
        return `${byStatus};${last.id ?? 0};${open.tries ?? 0};${open.at ?? 0}`;
      };
      return `${written.at ?? 0}/${created.at ?? 0}|${await queue('inbox')}|${await queue('outbox')}`;
    },
  };
}
