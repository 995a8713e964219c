/**
 * Transactions. `run(fn)` opens a Kysely controlled transaction and runs `fn` inside an
 * AsyncLocalStorage scope, so:
 * - queries issued from `fn` through the OUTER store join the transaction instead of waiting
 *   for the connection it holds (with SQLite's single connection that would deadlock);
 *   still, prefer the `tx` argument: it says what belongs to the transaction;
 * - queries from elsewhere (other requests, timers started outside) wait until it ends, and
 *   never slip into it (Kysely's SQLite driver keeps its one connection behind a mutex);
 * - a nested `run` becomes a savepoint: its failure undoes only its own writes.
 * Work started in `fn` must finish before `fn` returns; afterwards it uses the database.
 * Nested transactions inside one transaction must run one after another, not in parallel.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ControlledTransaction, Kysely } from 'kysely';
import type { Logger } from '../core/ports/index.js';
import type { Database } from './schema.js';

interface Scope {
  trx: ControlledTransaction<Database>;
  open: boolean;
  savepoints: number;
}

export interface TransactionRunner {
  /** The executor for the current async context: the open transaction, or the database. */
  current(): Kysely<Database>;
  run<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
}

/**
 * `base` gives the database outside a transaction for the current async context (on PostgreSQL,
 * work answering a platform in time has a pool of its own: open-store.ts).
 */
export function createTransactionRunner(
  base: () => Kysely<Database>,
  logger: Logger,
): TransactionRunner {
  const storage = new AsyncLocalStorage<Scope>();

  const active = (): Scope | undefined => {
    const scope = storage.getStore();
    return scope?.open ? scope : undefined;
  };

  async function nested<T>(scope: Scope, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    scope.savepoints += 1;
    const name = `relay_sp_${scope.savepoints}`;
    // Savepoint names are typed as a tuple in Kysely; ours are dynamic.
    const sp = (await scope.trx.savepoint(name as never).execute()) as unknown as {
      rollbackToSavepoint(n: string): { execute(): Promise<unknown> };
      releaseSavepoint(n: string): { execute(): Promise<unknown> };
    };
    let result: T;
    try {
      result = await fn(scope.trx);
    } catch (err) {
      await sp.rollbackToSavepoint(name).execute();
      throw err;
    }
    await sp.releaseSavepoint(name).execute();
    return result;
  }

  return {
    current: () => active()?.trx ?? base(),

    async run(fn) {
      const outer = active();
      if (outer) return nested(outer, fn);

      const trx = await base().startTransaction().execute();
      const scope: Scope = { trx, open: true, savepoints: 0 };
      try {
        const result = await storage.run(scope, () => fn(trx));
        scope.open = false;
        await trx.commit().execute();
        return result;
      } catch (err) {
        scope.open = false;
        if (!trx.isCommitted && !trx.isRolledBack) {
          try {
            await trx.rollback().execute();
          } catch (rollbackError) {
            logger.error({ err: rollbackError }, 'transaction rollback failed');
          }
        }
        throw err;
      }
    },
  };
}
