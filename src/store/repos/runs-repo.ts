import { sql } from 'kysely';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { RunRecord, StoreTx } from '../../core/ports/index.js';
import { ENDED_STATES } from '../../core/run.js';
import { StoreError } from '../errors.js';
import type { RepoContext } from './repo-context.js';
import { runColumns, toRun } from './row-mapping.js';
import { recordFirstState, recordStateChange } from './run-states.js';
import { compiledOnce } from './compiled-once.js';
import type { Database, RunsTable } from '../schema.js';

export function createRunsRepo(ctx: RepoContext): StoreTx['runs'] {
  /**
   * Map rows for the tracker's lists. A run whose stored JSON is damaged is logged and no
   * longer tracked, so it cannot crash (or starve) every tracker cycle after it.
   */
  async function trackedRuns(rows: Selectable<RunsTable>[]): Promise<RunRecord[]> {
    const runs: RunRecord[] = [];
    for (const row of rows) {
      try {
        runs.push(toRun(row));
      } catch (err) {
        if (!(err instanceof StoreError) || err.code !== 'corrupt') throw err;
        ctx.logger.error(
          { err, runId: row.run_id, threadKey: row.thread_key },
          'stored run is unreadable; it is no longer tracked',
        );
        await ctx
          .db()
          .updateTable('runs')
          .set({ tracked: 0 })
          .where('run_id', '=', row.run_id)
          .execute();
      }
    }
    return runs;
  }

  // Read for every notice of a run and by each trigger's handling: compiled once.
  const byId = compiledOnce(['id'], (v) =>
    ctx
      .db()
      .selectFrom('runs')
      .selectAll()
      .where('run_id', '=', v.id as string),
  );
  const byRequest = compiledOnce(['id'], (v) =>
    ctx
      .db()
      .selectFrom('runs')
      .selectAll()
      .where('request_id', '=', v.id as string),
  );

  return {
    async get(runId) {
      const { rows } = await ctx.db().executeQuery<Selectable<RunsTable>>(byId({ id: runId }));
      const row = rows[0];
      return row ? toRun(row) : undefined;
    },

    async getByRequest(requestId) {
      const { rows } = await ctx
        .db()
        .executeQuery<Selectable<RunsTable>>(byRequest({ id: requestId }));
      const row = rows[0];
      return row ? toRun(row) : undefined;
    },

    async insert(run) {
      const columns = runColumns(run) as RunsTable;
      await ctx
        .db()
        .insertInto('runs')
        .values({
          ...columns,
          service_updated_at: columns.service_updated_at ?? null,
          factory: columns.factory ?? null,
          trigger_message: columns.trigger_message ?? null,
          status_message: columns.status_message ?? null,
          notified_state: columns.notified_state ?? null,
          earlier_run_ms: columns.earlier_run_ms ?? null,
          cost_micro_usd: columns.cost_micro_usd ?? null,
          total_tokens: columns.total_tokens ?? null,
          requester_id: columns.requester_id ?? null,
          cap_micro_usd: columns.cap_micro_usd ?? null,
          review: columns.review ?? null,
        })
        .execute();
      await recordFirstState(ctx, run);
    },

    async update(runId, patch) {
      const columns = runColumns(patch);
      delete columns.run_id;
      if (Object.keys(columns).length === 0) return;
      if (patch.state !== undefined) await recordStateChange(ctx, runId, patch);
      await ctx.db().updateTable('runs').set(columns).where('run_id', '=', runId).execute();
    },

    async compareAndUpdate(runId, seen, patch) {
      const columns = runColumns(patch);
      delete columns.run_id;
      // A write time never moves backwards (a replica whose clock is behind the last
      // writer's): the batch tracker reads the records written since its last look, and a
      // racing compare-and-set must see that the row moved.
      if (columns.updated_at !== undefined && columns.updated_at <= seen.updatedAt) {
        columns.updated_at = seen.updatedAt + 1;
      }
      const db = ctx.db();
      // One statement: PostgreSQL re-checks the WHERE against a row a concurrent writer just
      // committed (READ COMMITTED waits for its lock), so of two racing writers one wins.
      const guard = (eb: ExpressionBuilder<Database, 'runs'>) =>
        eb.and([
          eb('run_id', '=', runId),
          eb('state', '=', seen.state),
          eb('tracked', '=', seen.tracked ? 1 : 0),
          eb('updated_at', '=', seen.updatedAt),
          seen.serviceUpdatedAt === undefined
            ? eb('service_updated_at', 'is', null)
            : eb('service_updated_at', '=', seen.serviceUpdatedAt),
          eb(sql<string>`coalesce(notified_state, '')`, '=', seen.notifiedState ?? ''),
        ]);
      if (Object.keys(columns).length === 0) {
        const row = await db.selectFrom('runs').select('run_id').where(guard).executeTakeFirst();
        return row !== undefined;
      }
      const result = await db.updateTable('runs').set(columns).where(guard).executeTakeFirst();
      const written = Number(result.numUpdatedRows) === 1;
      if (written && patch.state !== undefined && patch.state !== seen.state) {
        await db
          .insertInto('run_states')
          .values({ run_id: runId, state: patch.state, at: patch.updatedAt ?? seen.updatedAt })
          .execute();
      }
      return written;
    },

    async listDue(now, limit) {
      const rows = await ctx
        .db()
        .selectFrom('runs')
        .selectAll()
        .where('tracked', '=', 1)
        .where('next_check_at', '<=', now)
        .orderBy('next_check_at')
        .orderBy('run_id')
        .limit(limit)
        .execute();
      return trackedRuns(rows);
    },

    async listTracked(limit) {
      let query = ctx
        .db()
        .selectFrom('runs')
        .selectAll()
        .where('tracked', '=', 1)
        .orderBy('next_check_at')
        .orderBy('run_id');
      if (limit !== undefined) query = query.limit(limit);
      return trackedRuns(await query.execute());
    },

    async getMany(runIds) {
      const runs: RunRecord[] = [];
      // Bounded IN lists: SQLite allows 32,766 variables, PostgreSQL 65,535; stay far below.
      for (let i = 0; i < runIds.length; i += 500) {
        const rows = await ctx
          .db()
          .selectFrom('runs')
          .selectAll()
          .where('run_id', 'in', runIds.slice(i, i + 500))
          .execute();
        runs.push(...(await trackedRuns(rows)));
      }
      return runs;
    },

    async listWrittenSince(since) {
      const rows = await ctx
        .db()
        .selectFrom('runs')
        .selectAll()
        .where('updated_at', '>=', since)
        .execute();
      return trackedRuns(rows);
    },

    async listTrackedBrief() {
      const rows = await ctx
        .db()
        .selectFrom('runs')
        .select(['run_id', 'state', 'service_updated_at', 'created_at'])
        .where('tracked', '=', 1)
        .execute();
      return rows.map((r) => ({
        runId: r.run_id,
        state: r.state,
        ...(r.service_updated_at === null ? {} : { serviceUpdatedAt: r.service_updated_at }),
        createdAt: Number(r.created_at),
      }));
    },

    async countTracked() {
      const row = await ctx
        .db()
        .selectFrom('runs')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('tracked', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async listByThread(threadKey, limit) {
      const rows = await ctx
        .db()
        .selectFrom('runs')
        .selectAll()
        .where('thread_key', '=', threadKey)
        .orderBy('created_at', 'desc')
        .orderBy('run_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toRun);
    },

    async listRecent(threadKeyPrefix, limit) {
      const rows = await ctx
        .db()
        .selectFrom('runs')
        .selectAll()
        .where(sql<string>`substr(thread_key, 1, ${threadKeyPrefix.length})`, '=', threadKeyPrefix)
        .orderBy('created_at', 'desc')
        .orderBy('run_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toRun);
    },

    async spendOfRequesterSince(threadKeyPrefix, requesterId, since) {
      const row = await ctx
        .db()
        .selectFrom('runs')
        .select(sql<string | number | null>`sum(cost_micro_usd)`.as('micros'))
        .where('created_at', '>=', since)
        .where('requester_id', '=', requesterId)
        .where(sql<string>`substr(thread_key, 1, ${threadKeyPrefix.length})`, '=', threadKeyPrefix)
        .executeTakeFirst();
      const micros = row?.micros;
      return micros === null || micros === undefined ? 0 : Number(micros) / 1e6;
    },

    async usageOfRequesterSince(threadKeyPrefix, requesterId, since) {
      const row = await ctx
        .db()
        .selectFrom('runs')
        .select((eb) => [
          sql<string | number | null>`sum(cost_micro_usd)`.as('micros'),
          eb.fn.count<number | string>('cost_micro_usd').as('costed'),
        ])
        .where('created_at', '>=', since)
        .where('requester_id', '=', requesterId)
        .where(sql<string>`substr(thread_key, 1, ${threadKeyPrefix.length})`, '=', threadKeyPrefix)
        .executeTakeFirst();
      const micros = row?.micros;
      return {
        spentUsd: micros === null || micros === undefined ? 0 : Number(micros) / 1e6,
        costed: Number(row?.costed ?? 0),
      };
    },

    async unknownCostSince(threadKeyPrefix, since, options) {
      let query = ctx
        .db()
        .selectFrom('runs')
        .selectAll()
        .where('created_at', '>=', since)
        .where('tracked', '=', 1)
        .where(sql<string>`substr(thread_key, 1, ${threadKeyPrefix.length})`, '=', threadKeyPrefix)
        .where((eb) =>
          eb.not(
            eb.and([
              eb('state', 'in', [...ENDED_STATES, 'BLOCKED']),
              eb(sql<string>`coalesce(notified_state, '')`, '=', eb.ref('state')),
            ]),
          ),
        );
      if (options.requesterId !== undefined)
        query = query.where('requester_id', '=', options.requesterId);
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('run_id', 'desc')
        .limit(options.limit)
        .execute();
      return rows.map(toRun);
    },

    async spendSince(threadKeyPrefix, since) {
      const row = await ctx
        .db()
        .selectFrom('runs')
        .select(sql<string | number | null>`sum(cost_micro_usd)`.as('micros'))
        .where('created_at', '>=', since)
        .where(sql<string>`substr(thread_key, 1, ${threadKeyPrefix.length})`, '=', threadKeyPrefix)
        .executeTakeFirst();
      const micros = row?.micros;
      return micros === null || micros === undefined ? 0 : Number(micros) / 1e6;
    },
  };
}
