/**
 * Typed store errors. Callers (workers, /readyz) read `code` and `retryable`, never the
 * message; the driver's error is kept as `cause`.
 */
import { RelayError } from '../core/relay-error.js';
import type { DatabaseKind } from './schema.js';

export type StoreErrorCode =
  /** Another connection holds the lock (SQLITE_BUSY/LOCKED, PostgreSQL lock/serialization). */
  | 'busy'
  /** The disk (or database) is full. */
  | 'full'
  /** The database file or server is read-only. */
  | 'readonly'
  /** The database file is damaged, or a stored row cannot be read back. */
  | 'corrupt'
  /** A unique or other constraint refused the write (e.g. a run id inserted twice). */
  | 'constraint'
  /** The database server cannot be reached (PostgreSQL). */
  | 'unavailable'
  /** The store was closed (shutdown in progress). */
  | 'closed'
  | 'unknown';

const RETRYABLE: ReadonlySet<StoreErrorCode> = new Set<StoreErrorCode>(['busy', 'unavailable']);

export class StoreError extends RelayError<StoreErrorCode> {
  override readonly name = 'StoreError';
  readonly retryable: boolean;
  constructor(
    code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown; retryable?: boolean },
  ) {
    super(code, message, options);
    this.retryable = options?.retryable ?? RETRYABLE.has(code);
  }
}

/** `unsupported_database` is reserved for a database kind this build cannot open (none today). */
export type StoreConfigErrorCode = 'invalid_database_url' | 'unsupported_database';

/** The database URL is wrong or names a database this build cannot use. */
export class StoreConfigError extends RelayError<StoreConfigErrorCode> {
  override readonly name = 'StoreConfigError';
}

export function isStoreError(err: unknown): err is StoreError {
  return err instanceof StoreError;
}

/** File-system errors while opening a database file (creating its directory). */
function fileSystemCode(driverCode: string): StoreErrorCode | undefined {
  if (driverCode === 'ENOSPC') return 'full';
  if (['EROFS', 'EACCES', 'EPERM'].includes(driverCode)) return 'readonly';
  return undefined;
}

function sqliteCode(driverCode: string): StoreErrorCode {
  if (driverCode.startsWith('SQLITE_BUSY') || driverCode.startsWith('SQLITE_LOCKED')) {
    return 'busy';
  }
  if (driverCode.startsWith('SQLITE_FULL')) return 'full';
  if (driverCode.startsWith('SQLITE_READONLY')) return 'readonly';
  if (driverCode.startsWith('SQLITE_CORRUPT') || driverCode === 'SQLITE_NOTADB') {
    return 'corrupt';
  }
  if (driverCode.startsWith('SQLITE_CONSTRAINT')) return 'constraint';
  return 'unknown';
}

const PG_CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND']);

function postgresCode(driverCode: string): StoreErrorCode {
  // SQLSTATE classes: https://www.postgresql.org/docs/current/errcodes-appendix.html
  if (['40001', '40P01', '55P03', '57014'].includes(driverCode)) return 'busy';
  if (driverCode === '53100') return 'full';
  if (driverCode === '25006') return 'readonly';
  if (driverCode === 'XX001' || driverCode === 'XX002') return 'corrupt';
  if (driverCode.startsWith('23')) return 'constraint';
  if (driverCode.startsWith('08') || driverCode.startsWith('57P')) return 'unavailable';
  if (PG_CONNECTION_CODES.has(driverCode)) return 'unavailable';
  return 'unknown';
}

/** Turn a driver error into a `StoreError` (a `StoreError` passes through unchanged). */
export function toStoreError(err: unknown, kind: DatabaseKind): StoreError {
  if (err instanceof StoreError) return err;
  const driverCode =
    typeof (err as { code?: unknown } | null)?.code === 'string'
      ? (err as { code: string }).code
      : '';
  const code =
    driverCode === ''
      ? 'unknown'
      : (fileSystemCode(driverCode) ??
        (kind === 'sqlite' ? sqliteCode(driverCode) : postgresCode(driverCode)));
  const detail = err instanceof Error ? err.message : String(err);
  const label = driverCode === '' ? '' : ` (${driverCode})`;
  return new StoreError(code, `database error${label}: ${detail}`, { cause: err });
}
