/**
 * Wraps a Kysely dialect so every statement's failure (queries, begin, commit, savepoints)
 * surfaces as a typed `StoreError`, in one place instead of in every repository method.
 * It also tells `WriteHealth` which writes fail and succeed (for `ping()`, see write-health.ts).
 * For SQLite it also begins transactions with `BEGIN IMMEDIATE`, so a transaction takes the
 * write lock up front rather than failing on lock upgrade, and it waits for a lock another
 * process holds asynchronously: SQLite's own busy handler blocks the thread (so only a short
 * `busy_timeout` is set, see sqlite-dialect.ts); a statement that still finds the lock taken
 * is tried again after a pause that lets the event loop run (HTTP answers, timers), until
 * the store's busy budget is spent. Only statements outside a transaction and `BEGIN` are
 * retried: inside one, the write lock is already ours.
 * A statement of work that runs under a deadline (deadline.ts) is not started after it.
 */
import { CompiledQuery } from 'kysely';
import type {
  AbortableOperationOptions,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { currentDeadline, deadlineError } from './deadline.js';
import { toStoreError } from './errors.js';
import type { DatabaseKind } from './schema.js';
import type { WriteHealth } from './write-health.js';

const WRITE_NODES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode']);

/** How long to wait for a lock another process holds (SQLite), in total per statement. */
export interface BusyPolicy {
  budgetMs: number;
}
const FIRST_PAUSE_MS = 10;
const MAX_PAUSE_MS = 200;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class ErrorMappingConnection implements DatabaseConnection {
  /** Inside a transaction (begun through the driver), and whether it changed rows so far. */
  inTransaction = false;
  wroteRows = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly kind: DatabaseKind,
    private readonly health: WriteHealth,
    private readonly busy: BusyPolicy | undefined,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = currentDeadline();
    const giveUpAt = Date.now() + (this.busy?.budgetMs ?? 0);
    let wait = FIRST_PAUSE_MS;
    let result: QueryResult<R>;
    for (;;) {
      if (deadline !== undefined && Date.now() >= deadline) throw deadlineError();
      try {
        result = await this.inner.executeQuery<R>(compiledQuery);
        break;
      } catch (err) {
        const mapped = toStoreError(err, this.kind);
        this.health.failed(mapped);
        const retry =
          mapped.code === 'busy' &&
          this.busy !== undefined &&
          !this.inTransaction &&
          Date.now() + wait < Math.min(giveUpAt, deadline ?? Infinity);
        if (!retry) throw mapped;
        await pause(wait);
        wait = Math.min(MAX_PAUSE_MS, wait * 2);
      }
    }
    if (WRITE_NODES.has(compiledQuery.query.kind)) {
      const wrote = (result.numAffectedRows ?? 0n) > 0n;
      if (this.inTransaction) this.wroteRows ||= wrote;
      else this.health.succeeded(wrote);
    }
    return result;
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize: number,
    options?: AbortableOperationOptions,
  ): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(compiledQuery, chunkSize, options);
    } catch (err) {
      const mapped = toStoreError(err, this.kind);
      this.health.failed(mapped);
      throw mapped;
    }
  }
}

class ErrorMappingDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, ErrorMappingConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly kind: DatabaseKind,
    private readonly health: WriteHealth,
    private readonly busy: BusyPolicy | undefined,
  ) {}

  private unwrap(connection: DatabaseConnection): DatabaseConnection {
    return connection instanceof ErrorMappingConnection ? connection.inner : connection;
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const mapped = toStoreError(err, this.kind);
      this.health.failed(mapped);
      throw mapped;
    }
  }

  private mark(connection: DatabaseConnection, inTransaction: boolean): void {
    if (connection instanceof ErrorMappingConnection) {
      connection.inTransaction = inTransaction;
      connection.wroteRows = false;
    }
  }

  init(): Promise<void> {
    return this.guard(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.guard(() => this.inner.acquireConnection());
    let wrapper = this.wrapped.get(connection);
    if (!wrapper) {
      wrapper = new ErrorMappingConnection(connection, this.kind, this.health, this.busy);
      this.wrapped.set(connection, wrapper);
    }
    return wrapper;
  }

  async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    if (this.kind === 'sqlite') await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    else await this.guard(() => this.inner.beginTransaction(this.unwrap(connection), settings));
    this.mark(connection, true);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const wrote = connection instanceof ErrorMappingConnection && connection.wroteRows;
    await this.guard(() => this.inner.commitTransaction(this.unwrap(connection)));
    this.mark(connection, false);
    this.health.succeeded(wrote);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.mark(connection, false);
    await this.guard(() => this.inner.rollbackTransaction(this.unwrap(connection)));
  }

  savepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.guard(async () => {
      if (!this.inner.savepoint) throw new Error('the driver has no savepoints');
      await this.inner.savepoint(this.unwrap(connection), name, compileQuery);
    });
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.guard(async () => {
      if (!this.inner.rollbackToSavepoint) throw new Error('the driver has no savepoints');
      await this.inner.rollbackToSavepoint(this.unwrap(connection), name, compileQuery);
    });
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.guard(async () => {
      if (!this.inner.releaseSavepoint) throw new Error('the driver has no savepoints');
      await this.inner.releaseSavepoint(this.unwrap(connection), name, compileQuery);
    });
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(this.unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.guard(() => this.inner.destroy());
  }
}

export function withErrorMapping(
  dialect: Dialect,
  kind: DatabaseKind,
  health: WriteHealth,
  busy?: BusyPolicy,
): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new ErrorMappingDriver(dialect.createDriver(), kind, health, busy),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
