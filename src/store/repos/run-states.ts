/**
 * A run's state history: the runs repository records the first state at insert and each
 * different state before an update writes it (one INSERT … SELECT that adds nothing when the
 * state is unchanged), inside the caller's transaction.
 */
import { sql } from 'kysely';
import type { RunRecord } from '../../core/ports/index.js';
import type { RepoContext } from './repo-context.js';

export async function recordFirstState(ctx: RepoContext, run: RunRecord): Promise<void> {
  await ctx
    .db()
    .insertInto('run_states')
    .values({ run_id: run.runId, state: run.state, at: run.createdAt })
    .execute();
}

export async function recordStateChange(
  ctx: RepoContext,
  runId: string,
  patch: Partial<RunRecord>,
): Promise<void> {
  const state = patch.state;
  if (state === undefined) return;
  const db = ctx.db();
  await db
    .insertInto('run_states')
    .columns(['run_id', 'state', 'at'])
    .expression(
      db
        .selectFrom('runs')
        // Typed casts: PostgreSQL cannot infer a bare parameter's type in a select list.
        .select([
          'run_id',
          sql<string>`cast(${state} as text)`.as('state'),
          patch.updatedAt === undefined
            ? 'updated_at'
            : sql<number>`cast(${patch.updatedAt} as bigint)`.as('at'),
        ])
        .where('run_id', '=', runId)
        .where('state', '<>', state),
    )
    .execute();
}
