/**
 * The ingress's write on the caller's turn of the event loop. better-sqlite3 runs statements
 * synchronously; Kysely's path to it (the executor, the connection gate, the driver's mutex,
 * the deadline's timer) is a chain of promises, each a trip through the event loop while
 * Slack or GitHub waits for the answer. When nobody holds the one connection (no statement,
 * no transaction under way) the insert cannot interleave with anything, so it runs at once.
 * Otherwise, or when another process holds the write lock past the short synchronous busy
 * timeout, the caller is told to take the asynchronous path, which queues and waits properly.
 */
import type { CompiledQuery, SqliteDatabase } from 'kysely';
import type { Trigger } from '../../core/trigger.js';
import { toStoreError } from '../errors.js';
import type { WriteHealth } from '../write-health.js';
import type { ConnectionGate } from './connection-gate.js';

export interface TriggerNowDeps {
  database: SqliteDatabase;
  gate: ConnectionGate;
  health: WriteHealth;
  /** The inbox's insert (inbox-repo.ts), which returns the new row's id, none for a duplicate. */
  statement: (trigger: Trigger, now: number) => CompiledQuery;
  closed: () => boolean;
}

export function createAddTriggerNow(
  deps: TriggerNowDeps,
): (trigger: Trigger, now: number) => boolean | undefined {
  return (trigger, now) => {
    if (deps.closed() || !deps.gate.idle()) return undefined;
    const query = deps.statement(trigger, now);
    let added: boolean;
    try {
      added = deps.database.prepare(query.sql).all(query.parameters).length > 0;
    } catch (err) {
      const mapped = toStoreError(err, 'sqlite');
      deps.health.failed(mapped);
      if (mapped.code === 'busy') return undefined;
      throw mapped;
    }
    deps.health.succeeded(added);
    return added;
  };
}
