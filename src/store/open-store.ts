/**
 * Opens the store named by a database URL, runs the migrations, and wires the repositories.
 */
import { Kysely, sql } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import type { Dialect } from 'kysely';
import type { Logger, Store, StoreTx } from '../core/ports/index.js';
import { parseDatabaseUrl } from './database-url.js';
import { currentDeadline, withDeadline } from './deadline.js';
import { withErrorMapping } from './error-mapping-dialect.js';
import { StoreError, toStoreError } from './errors.js';
import {
  createConsoleSessionRepo,
  createLoginPinRepo,
  createUsedOnceRepo,
} from './repos/console-repo.js';
import { createInboxQueue, createInboxRepo } from './repos/inbox-repo.js';
import { createLeasesRepo } from './repos/leases-repo.js';
import { createHomeViewersRepo } from './repos/home-viewers-repo.js';
import { createBlockedDescendantsRepo } from './repos/blocked-descendants-repo.js';
import { createReactionIdsRepo } from './repos/reaction-ids-repo.js';
import { createLinearSessionsRepo } from './repos/linear-sessions-repo.js';
import { createInstallationRepo } from './repos/installations-repo.js';
import { migrationProvider } from './migrations/index.js';
import { createOutboxQueue, createOutboxRepo } from './repos/outbox-repo.js';
import { createOperatorQueries } from './repos/operator-repo.js';
import { createPruneFinished } from './repos/prune-finished.js';
import { createPruneRuns } from './repos/prune-runs.js';
import { createLeaseRelease } from './repos/release-leases.js';
import type { RepoContext } from './repos/repo-context.js';
import { createRunsRepo } from './repos/runs-repo.js';
import type { Database, DatabaseKind } from './schema.js';
import { createSettingsRepo } from './repos/settings-repo.js';
import { createStartMessagesRepo } from './repos/start-messages-repo.js';
import { createRefusalsRepo } from './repos/refusals-repo.js';
import { createSqliteDialect, DEFAULT_BUSY_TIMEOUT_MS } from './sqlite/sqlite-dialect.js';
import { createThreadsRepo } from './repos/threads-repo.js';
import { createTransactionRunner } from './transaction-runner.js';
import { createWriteHealth } from './write-health.js';
import { startWalCheckpointer } from './sqlite/wal-checkpointer.js';
import type { WalCheckpointer } from './sqlite/wal-checkpointer.js';

export interface OpenStoreOptions {
  /** `sqlite:PATH`, `sqlite::memory:` (tests), a plain file path, or `postgres://…`. */
  databaseUrl: string;
  logger?: Logger;
  /** SQLite: how long a statement waits for another connection's lock (default 5000). */
  busyTimeoutMs?: number;
  /** PostgreSQL: connections in this process's pool (default 10). */
  poolSize?: number;
  /**
   * PostgreSQL: connections kept apart for work that answers a platform in time (store calls
   * under `withDeadline`: the acknowledgement's inbox insert, /readyz), so it never queues
   * behind the workers' statements in the main pool (default 2; 0: one pool for all).
   */
  answerPoolSize?: number;
  /**
   * SQLite file: how often a background thread checkpoints the write-ahead log
   * (wal-checkpointer.ts; default 1000). 0: only commits do, past ~40 MB of log.
   */
  checkpointIntervalMs?: number;
}

export interface OpenedStore extends Store {
  /** Apply pending migrations (already done by `openStore`; safe to call again). */
  migrate(): Promise<void>;
}

const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

function createTx(ctx: RepoContext): StoreTx {
  return {
    threads: createThreadsRepo(ctx),
    runs: createRunsRepo(ctx),
    inbox: createInboxRepo(ctx),
    outbox: createOutboxRepo(ctx),
    settings: createSettingsRepo(ctx),
    startMessages: createStartMessagesRepo(ctx),
    refusals: createRefusalsRepo(ctx),
    linearSessions: createLinearSessionsRepo(ctx),
  };
}

/** The transaction-level advisory lock replicas' start-up migrations take one at a time. */
const MIGRATION_LOCK_KEY = 7_408_531_266;

/** A migration run that failed inside our transaction: thrown to roll it back, then read. */
class MigrationRunFailed extends Error {
  constructor(readonly result: MigrationResultSet) {
    super('migration failed');
  }
}

async function migrateToLatest(
  db: Kysely<Database>,
  kind: DatabaseKind,
  logger: Logger,
): Promise<void> {
  const migrate = (on: Kysely<Database>) =>
    new Migrator({ db: on, provider: migrationProvider(kind) }).migrateToLatest();
  // PostgreSQL: inside one transaction of ours, so that Kysely's session-level migration lock is
  // taken and released on one server connection. Behind a transaction-mode pooler (PgBouncer)
  // each transaction gets whichever server connection is free: taken outside a transaction,
  // the lock could stay held on a connection its release never reached, and the next replica's
  // start would wait for it. A failed migration undoes the whole run, as Kysely's own does.
  const { error, results } =
    kind === 'postgres'
      ? await db
          .transaction()
          .execute(async (trx) => {
            // Replicas starting together wait here, before Kysely creates its tables: a
            // concurrent create would abort this transaction.
            await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`.execute(trx);
            const result = await migrate(trx);
            if (result.error !== undefined) throw new MigrationRunFailed(result);
            return result;
          })
          .catch((err: unknown) => {
            if (err instanceof MigrationRunFailed) return err.result;
            throw err;
          })
      : await migrate(db);
  // One line at info (a first start applies every migration; a line each would bury the
  // start-up report), each migration at debug.
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  for (const migration of applied) logger.debug({ migration }, 'migration applied');
  if (applied.length > 0) {
    const names =
      applied.length === 1 ? applied[0] : `${applied[0]} … ${applied[applied.length - 1]}`;
    logger.info(
      { migrations: applied.length },
      `database migrated: ${applied.length} migration${applied.length === 1 ? '' : 's'} applied (${names})`,
    );
  }
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const cause = toStoreError(error, kind);
    throw new StoreError(
      cause.code,
      failed
        ? `migration ${failed} failed: ${cause.message}`
        : `migrations failed: ${cause.message}`,
      { cause: error, retryable: cause.retryable },
    );
  }
}

/** PostgreSQL: connections kept for work under a deadline (`answerPoolSize`). */
const ANSWER_POOL_SIZE = 2;

async function createDialect(
  options: OpenStoreOptions,
  logger: Logger,
): Promise<{ dialect: Dialect; kind: DatabaseKind; answerDialect?: Dialect }> {
  const target = parseDatabaseUrl(options.databaseUrl);
  if (target.kind === 'postgres') {
    // Loaded only when used: `pg` costs a SQLite deployment memory and start-up time.
    const { createPostgresDialect } = await import('./postgres/postgres-dialect.js');
    const { poolSize } = options;
    const answerPoolSize = options.answerPoolSize ?? ANSWER_POOL_SIZE;
    return {
      dialect: createPostgresDialect({
        url: target.url,
        logger,
        ...(poolSize ? { poolSize } : {}),
      }),
      kind: 'postgres',
      ...(answerPoolSize > 0
        ? {
            answerDialect: createPostgresDialect({
              url: target.url,
              logger,
              poolSize: answerPoolSize,
            }),
          }
        : {}),
    };
  }
  // SQLite has one connection: a pool of its own would only wait for the same file lock.
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  return { dialect: createSqliteDialect(target.path, busyTimeoutMs), kind: 'sqlite' };
}

/**
 * The database behind `databaseUrl` as a bare Kysely instance (no repositories, no
 * migrations), with coded errors: for whole-table work such as copying a deployment's data.
 */
export async function openDatabase(
  databaseUrl: string,
  logger: Logger = silentLogger,
): Promise<{ db: Kysely<Database>; kind: DatabaseKind }> {
  const { dialect, kind } = await createDialect({ databaseUrl, answerPoolSize: 0 }, logger);
  return {
    db: new Kysely<Database>({ dialect: withErrorMapping(dialect, kind, createWriteHealth()) }),
    kind,
  };
}

/** How often the background thread checkpoints SQLite's write-ahead log. */
const CHECKPOINT_INTERVAL_MS = 1_000;

/** /readyz asks the store; a store that cannot answer a `select 1` in this time is not ready. */
const PING_DEADLINE_MS = 1_000;

export async function openStore(options: OpenStoreOptions): Promise<OpenedStore> {
  const logger = (options.logger ?? silentLogger).child({ component: 'store' });
  const { dialect, kind, answerDialect } = await createDialect(options, logger);
  const health = createWriteHealth();
  const busy =
    kind === 'sqlite' ? { budgetMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS } : undefined;
  const db = new Kysely<Database>({ dialect: withErrorMapping(dialect, kind, health, busy) });
  // A platform waiting for its answer (the work under `withDeadline`) takes its connection from
  // a pool of its own, not from behind the workers' statements (docs/decisions/acknowledgement-latency.md).
  const answering =
    answerDialect &&
    new Kysely<Database>({ dialect: withErrorMapping(answerDialect, kind, health) });
  const base = answering ? () => (currentDeadline() === undefined ? db : answering) : () => db;
  const transactions = createTransactionRunner(base, logger);
  const ctx: RepoContext = { db: () => transactions.current(), kind, logger };
  // One set of repositories for the store and every transaction: their executor is the
  // transaction of the async context they run in (transaction-runner.ts), so a transaction
  // neither builds them again nor compiles their statements again.
  const repos = createTx(ctx);
  let closed: Promise<void> | undefined;
  let checkpointer: WalCheckpointer | undefined;

  const store: OpenedStore = {
    ...repos,
    inboxQueue: createInboxQueue(ctx),
    outboxQueue: createOutboxQueue(ctx),
    operator: createOperatorQueries(ctx),
    leases: createLeasesRepo(ctx),
    installations: createInstallationRepo(ctx),
    consoleSessions: createConsoleSessionRepo(ctx),
    usedOnce: createUsedOnceRepo(ctx),
    loginPins: createLoginPinRepo(ctx),
    homeViewers: createHomeViewersRepo(ctx),
    blockedDescendants: createBlockedDescendantsRepo(ctx),
    reactionIds: createReactionIdsRepo(ctx),
    transaction: (fn) => transactions.run(() => fn(repos)),
    migrate: () => migrateToLatest(db, kind, logger),
    releaseLeases: createLeaseRelease(ctx),
    pruneFinished: createPruneFinished(ctx),
    pruneRuns: (before, limit) =>
      transactions.run((trx) => createPruneRuns({ ...ctx, db: () => trx })(before, limit)),
    withDeadline,
    shared: kind === 'postgres',
    async databaseTime() {
      const now =
        kind === 'postgres'
          ? sql<{
              now: number | string;
            }>`select extract(epoch from clock_timestamp()) * 1000 as now`
          : sql<{ now: number }>`select (julianday('now') - 2440587.5) * 86400000.0 as now`;
      const { rows } = await now.execute(transactions.current());
      return Number(rows[0]?.now);
    },
    async ping() {
      if (closed) throw new StoreError('closed', 'the store is closed');
      // `select 1` succeeds while every write fails (a held lock, a full disk): say so, at
      // once (the connection may be busy waiting for that lock).
      const failure = health.failure();
      if (failure) {
        const reason = `${failure.code}: writes are failing (${failure.message})`;
        throw new StoreError(failure.code, reason, { cause: failure });
      }
      await withDeadline(PING_DEADLINE_MS, () => sql`select 1`.execute(transactions.current()));
    },
    close() {
      // The checkpoint thread's connection closes first, so the service's is the last one
      // and SQLite folds the log back into the file as it closes.
      closed ??= (checkpointer?.close() ?? Promise.resolve()).then(() =>
        Promise.all([db.destroy(), answering?.destroy()]).then(() => undefined),
      );
      return closed;
    },
  };

  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  const target = parseDatabaseUrl(options.databaseUrl);
  const intervalMs = options.checkpointIntervalMs ?? CHECKPOINT_INTERVAL_MS;
  if (target.kind === 'sqlite' && target.path !== ':memory:' && intervalMs > 0) {
    try {
      checkpointer = startWalCheckpointer(target.path, { intervalMs, logger });
    } catch (err) {
      logger.warn({ err }, 'no WAL checkpoint thread; commits checkpoint the log themselves');
    }
  }
  return store;
}
