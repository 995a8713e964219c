export { openStore } from './open-store.js';
export type { OpenStoreOptions, OpenedStore } from './open-store.js';
export { parseDatabaseUrl, DEFAULT_DATABASE_PATH } from './database-url.js';
export type { DatabaseTarget } from './database-url.js';
export { StoreError, StoreConfigError, isStoreError } from './errors.js';
export type { StoreErrorCode, StoreConfigErrorCode } from './errors.js';
export { copyDatabase } from './copy-database.js';
export type { CopyResult, CopiedTable } from './copy-database.js';
