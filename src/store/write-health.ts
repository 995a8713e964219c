/**
 * Remembers the last write the database refused for a reason that stops every write (busy,
 * full, readonly, corrupt), until a write succeeds again. `select 1` cannot see these (a WAL
 * database answers reads while it takes no write), so `ping()` (and /readyz) asks here.
 * Cheap: no probe statement, only bookkeeping on statements already running.
 */
import type { StoreError, StoreErrorCode } from './errors.js';

const WRITE_BLOCKING: ReadonlySet<StoreErrorCode> = new Set<StoreErrorCode>([
  'busy',
  'full',
  'readonly',
  'corrupt',
]);

export interface WriteHealth {
  /** The standing write failure, or undefined when the last write (if any) succeeded. */
  failure(): StoreError | undefined;
  /** A statement, begin or commit failed. Only write-blocking codes are remembered. */
  failed(err: StoreError): void;
  /**
   * A write statement or a commit succeeded. It clears a standing `busy` (the lock was taken)
   * and, when rows were written, any failure (there was room, the file took the write).
   */
  succeeded(wroteRows: boolean): void;
}

export function createWriteHealth(): WriteHealth {
  let standing: StoreError | undefined;
  return {
    failure: () => standing,
    failed(err) {
      if (WRITE_BLOCKING.has(err.code)) standing = err;
    },
    succeeded(wroteRows) {
      if (wroteRows || standing?.code === 'busy') standing = undefined;
    },
  };
}
