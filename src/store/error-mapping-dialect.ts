/**
 * Wraps a Kysely dialect so every statement's failure (queries, begin, commit, savepoints)
 * surfaces as a typed `StoreError`, in one place instead of in every repository method.
 * For SQLite it also begins transactions with `BEGIN IMMEDIATE`, so a transaction takes the
 * write lock up front and waits `busy_timeout` for it rather than failing on lock upgrade.
 */
import { CompiledQuery } from 'kysely';
import type {
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { toStoreError } from './errors.js';
import type { DatabaseKind } from './schema.js';

class ErrorMappingConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly kind: DatabaseKind,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(compiledQuery);
    } catch (err) {
      throw toStoreError(err, this.kind);
    }
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(compiledQuery, chunkSize);
    } catch (err) {
      throw toStoreError(err, this.kind);
    }
  }
}

class ErrorMappingDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, ErrorMappingConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly kind: DatabaseKind,
  ) {}

  private unwrap(connection: DatabaseConnection): DatabaseConnection {
    return connection instanceof ErrorMappingConnection ? connection.inner : connection;
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw toStoreError(err, this.kind);
    }
  }

  init(): Promise<void> {
    return this.guard(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.guard(() => this.inner.acquireConnection());
    let wrapper = this.wrapped.get(connection);
    if (!wrapper) {
      wrapper = new ErrorMappingConnection(connection, this.kind);
      this.wrapped.set(connection, wrapper);
    }
    return wrapper;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (this.kind === 'sqlite') {
      return connection.executeQuery(CompiledQuery.raw('begin immediate')).then(() => undefined);
    }
    return this.guard(() => this.inner.beginTransaction(this.unwrap(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.guard(() => this.inner.commitTransaction(this.unwrap(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.guard(() => this.inner.rollbackTransaction(this.unwrap(connection)));
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

export function withErrorMapping(dialect: Dialect, kind: DatabaseKind): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new ErrorMappingDriver(dialect.createDriver(), kind),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
