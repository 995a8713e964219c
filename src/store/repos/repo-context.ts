/**
 * What every repository gets: a function returning the executor to use right now (the
 * database, or the transaction in progress), the dialect kind, and a logger.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../../core/ports/index.js';
import type { Database, DatabaseKind } from '../schema.js';

export interface RepoContext {
  db(): Kysely<Database>;
  kind: DatabaseKind;
  logger: Logger;
}
