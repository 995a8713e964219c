/**
 * The SQLite connection: one better-sqlite3 database with the pragmas a long-running
 * service wants (WAL, a short synchronous busy timeout, foreign keys, synchronous=NORMAL).
 */
import BetterSqlite3 from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import type { Dialect, SqliteDatabase } from 'kysely';
import { toStoreError } from '../errors.js';
import { prepareDatabaseFile, restrictDatabaseFiles } from './file-modes.js';
import { opaqueParameters } from './opaque-parameters.js';

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
/**
 * SQLite's own busy handler sleeps on the event loop's thread; it gets only this long per
 * try. The rest of the wait for a lock is asynchronous (error-mapping-dialect.ts).
 */
export const SYNC_BUSY_TIMEOUT_MS = 20;
const WAL_AUTOCHECKPOINT_PAGES = 10_000;
const STATEMENT_CACHE_SIZE = 200;

/**
 * Kysely's SQLite driver prepares every statement anew; the queries of this store are few
 * and repeated (claims, tracker lists), so keep the most recent prepared statements, each
 * with the parameters its plan depends on made opaque to the planner (opaque-parameters.ts),
 * or SQLite would prepare it again on every run.
 */
function withStatementCache(database: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sqlText) {
      let statement = cache.get(sqlText);
      if (statement) {
        cache.delete(sqlText); // re-insert: most recently used last
      } else {
        statement = database.prepare(opaqueParameters(sqlText));
        const oldest = cache.size >= STATEMENT_CACHE_SIZE ? cache.keys().next() : undefined;
        if (oldest && !oldest.done) cache.delete(oldest.value);
      }
      cache.set(sqlText, statement);
      return statement;
    },
  };
}

export function createSqliteDialect(path: string, busyTimeoutMs: number): Dialect {
  let database: BetterSqlite3.Database | undefined;
  try {
    if (path !== ':memory:') prepareDatabaseFile(path);
    const syncWait = Math.max(0, Math.floor(Math.min(busyTimeoutMs, SYNC_BUSY_TIMEOUT_MS)));
    database = new BetterSqlite3(path, { timeout: syncWait });
    database.pragma(`busy_timeout = ${syncWait}`);
    database.pragma('journal_mode = WAL');
    // A background thread checkpoints about once a second (wal-checkpointer.ts); the
    // automatic checkpoint inside a commit stays as a backstop for a log of ~40 MB.
    database.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    if (path !== ':memory:') restrictDatabaseFiles(path);
  } catch (err) {
    database?.close();
    throw toStoreError(err, 'sqlite');
  }
  return new SqliteDialect({ database: withStatementCache(database) });
}
