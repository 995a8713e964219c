/**
 * What every repository gets: a function returning the executor to use right now (the
 * database, or the transaction in progress), the dialect kind, and a logger.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Logger } from '../../core/ports/index.js';
import type { Database, DatabaseKind } from '../schema.js';

export interface RepoContext {
  db(): Kysely<Database>;
  kind: DatabaseKind;
  logger: Logger;
}

/** The row of `table` whose columns equal `where`'s values (the first, if several), or undefined. */
export async function rowWhere<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  where: Partial<Selectable<Database[T]>>,
): Promise<Selectable<Database[T]> | undefined> {
  // One table's name and columns as values: the query is built over no particular table type.
  let query = (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
    .selectFrom(table)
    .selectAll();
  for (const [column, value] of Object.entries(where)) query = query.where(column, '=', value);
  return (await query.executeTakeFirst()) as Selectable<Database[T]> | undefined;
}
