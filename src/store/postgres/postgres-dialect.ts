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
  // A connection checked out but between queries (a transaction waiting on the service, a
  // claim about to start) that the server cuts (a restart, a failover) emits 'error' on its
  // client, which the pool does not listen to then: unhandled, it would end the process.
  // The statement in flight fails with a coded StoreError; the pool drops the dead
  // connection when it is released and opens a fresh one for the next query.
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      options.logger.warn({ err }, 'PostgreSQL connection lost');
    });
  });
  return new PostgresDialect({ pool });
}
