/**
 * The PostgreSQL connection for replicas that share one database: a `pg` pool behind
 * Kysely's PostgresDialect. Queue claims add `FOR UPDATE SKIP LOCKED` (see inbox-repo.ts).
 */
import pg from 'pg';
import { PostgresDialect } from 'kysely';
import type { Dialect } from 'kysely';
import type { Logger } from '../../core/ports/index.js';

export interface PostgresOptions {
  url: string;
  logger: Logger;
  /** Pool size per process (default 10). */
  poolSize?: number;
}

export function createPostgresDialect(options: PostgresOptions): Dialect {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 10_000,
    application_name: 'agent-relay',
  });
  // An idle client losing its connection emits 'error' on the pool; unhandled, that would
  // end the process. The next query gets a fresh connection (or a typed error).
  pool.on('error', (err) => {
    options.logger.warn({ err }, 'idle PostgreSQL connection failed');
  });
  return new PostgresDialect({ pool });
}
