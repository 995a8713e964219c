/**
 * Copy a deployment's data from one database to another (SQLite to PostgreSQL when a team
 * moves to several replicas; any direction works): both are migrated to the current schema
 * first, the target must hold no data yet, and everything is written in ONE transaction on
 * the target, so a failed copy leaves it empty. Rows keep their ids; PostgreSQL's id
 * sequences are moved past them. The named leases are not copied (they belong to the
 * processes of the old deployment). Stop the old deployment first: a write after the copy
 * began is not carried over.
 */
import { existsSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Logger } from '../core/ports/index.js';
import { parseDatabaseUrl } from './database-url.js';
import { StoreError } from './errors.js';
import { openDatabase, openStore } from './open-store.js';
import type { Database } from './schema.js';

/** The tables copied, parents first, each with the key it is read in order of. */
const TABLES = [
  { table: 'threads', key: 'thread_key' },
  { table: 'thread_aliases', key: 'alias_key' },
  { table: 'runs', key: 'run_id' },
  { table: 'inbox', key: 'id' },
  { table: 'outbox', key: 'id' },
  { table: 'settings', key: ['scope', 'key'] },
  { table: 'run_states', key: 'id' },
  { table: 'start_messages', key: 'request_id' },
  { table: 'installations', key: ['platform', 'enterprise_id', 'team_id'] },
  { table: 'installation_teams', key: ['platform', 'team_id'] },
  { table: 'refusals', key: ['thread_key', 'person'] },
  { table: 'reaction_ids', key: ['thread_key', 'message_id', 'content'] },
  // Console sessions and used one-time values are not copied: sign in again after a move.
  { table: 'login_pins', key: 'login' },
  // Which blocked sub-runs a thread was told about: not told again after the move.
  { table: 'blocked_descendants', key: 'run_id' },
  // Which Linear sessions are working and quiet since when: keep-alives go on after the move.
  { table: 'linear_sessions', key: 'thread_key' },
] as const;

export type CopiedTable = (typeof TABLES)[number]['table'];

export interface CopyResult {
  rows: Record<CopiedTable, number>;
}

const BATCH = 500;

async function migrate(databaseUrl: string, logger: Logger | undefined): Promise<void> {
  const store = await openStore({
    databaseUrl,
    checkpointIntervalMs: 0,
    ...(logger ? { logger } : {}),
  });
  await store.close();
}

async function countRows(db: Kysely<Database>, table: CopiedTable): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function copyDatabase(options: {
  from: string;
  to: string;
  logger?: Logger;
}): Promise<CopyResult> {
  const source = parseDatabaseUrl(options.from);
  parseDatabaseUrl(options.to); // a malformed target is refused before anything is opened
  if (source.kind === 'sqlite' && source.path !== ':memory:' && !existsSync(source.path)) {
    throw new StoreError('unavailable', `there is no SQLite database at ${source.path}`, {
      retryable: false,
    });
  }
  if (options.from.trim() === options.to.trim()) {
    throw new StoreError('constraint', 'the source and the target are the same database', {
      retryable: false,
    });
  }
  await migrate(options.from, options.logger);
  await migrate(options.to, options.logger);
  const from = await openDatabase(options.from, options.logger);
  const to = await openDatabase(options.to, options.logger);
  try {
    for (const { table } of TABLES) {
      const n = await countRows(to.db, table);
      if (n > 0) {
        throw new StoreError(
          'constraint',
          `the target already holds data (${n} rows in ${table}); copy into an empty database`,
          { retryable: false },
        );
      }
    }
    const rows = {} as Record<CopiedTable, number>;
    await to.db.transaction().execute(async (trx) => {
      for (const spec of TABLES) {
        rows[spec.table] = await copyTable(from.db, trx, spec);
      }
      if (to.kind === 'postgres') {
        for (const table of ['inbox', 'outbox', 'run_states'] as const) {
          await sql`select setval(pg_get_serial_sequence(${table}, 'id'),
                                  coalesce((select max(id) from ${sql.table(table)}), 0) + 1,
                                  false)`.execute(trx);
        }
      }
    });
    return { rows };
  } finally {
    await Promise.all([from.db.destroy(), to.db.destroy()]);
  }
}

async function copyTable(
  from: Kysely<Database>,
  to: Kysely<Database>,
  spec: (typeof TABLES)[number],
): Promise<number> {
  const keys: readonly string[] = typeof spec.key === 'string' ? [spec.key] : spec.key;
  let copied = 0;
  let offset = 0;
  for (;;) {
    // Ordered by the key, so the pages neither overlap nor skip (nothing writes meanwhile).
    let query = from.selectFrom(spec.table).selectAll();
    for (const key of keys) query = query.orderBy(sql.ref(key));
    const page = (await query.limit(BATCH).offset(offset).execute()) as Record<string, unknown>[];
    if (page.length === 0) return copied;
    // PostgreSQL hands bigint columns back as strings; both databases take them as numbers.
    const values = page.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([column, value]) => [
          column,
          typeof value === 'string' && NUMERIC.has(column) ? Number(value) : value,
        ]),
      ),
    );
    await to
      .insertInto(spec.table)
      .values(values as never)
      .execute();
    copied += page.length;
    offset += page.length;
  }
}

/** Columns that hold numbers (epoch ms, counters, flags, ids) in every table. */
const NUMERIC = new Set([
  'id',
  'created_at',
  'updated_at',
  'next_check_at',
  'check_interval_ms',
  'tracked',
  'attempts',
  'next_attempt_at',
  'lease_until',
  'wait_notice_sent',
  'own_lane',
  'low_priority',
  'told_at',
  'at',
  'earlier_run_ms',
  'cost_micro_usd',
  'total_tokens',
  'cap_micro_usd',
  'is_enterprise_install',
]);
