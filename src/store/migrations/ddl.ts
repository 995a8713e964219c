/**
 * The statements migrations are made of, written as data: a table is a list of column specs,
 * an index a list of columns. Each becomes the one Kysely statement a migration would
 * otherwise chain by hand (test/store/migrations-ddl.test.ts pins what each migration sends).
 */
import { sql } from 'kysely';
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import type { DatabaseKind } from '../schema.js';

/** Migrations see the database as it is at their version, not as today's typed schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

type ColumnType = 'text' | 'bigint' | 'integer';

/**
 * `'name type'`: NOT NULL; `'name type null'`: may be null; `'name type key'`: the primary
 * key; `'name integer default 0'`: NOT NULL with a default; `'name serial'`: an
 * auto-increment primary key as each database spells it.
 */
export type ColumnSpec =
  `${string} ${ColumnType}${'' | ' null' | ' key' | ` default ${number}`}` | `${string} serial`;

type Modifier = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

function column(
  spec: ColumnSpec,
  kind: DatabaseKind | undefined,
): [string, ColumnType | 'bigserial', Modifier?] {
  const [name = '', type = '', ...rest] = spec.split(' ');
  const extra = rest.join(' ');
  if (type === 'serial') {
    if (kind === undefined) throw new Error(`${spec}: a serial column needs the database kind`);
    return kind === 'postgres'
      ? [name, 'bigserial', (c) => c.primaryKey()]
      : [name, 'integer', (c) => c.primaryKey().autoIncrement()];
  }
  const columnType = type as ColumnType;
  if (extra === '') return [name, columnType, (c) => c.notNull()];
  if (extra === 'null') return [name, columnType];
  if (extra === 'key') return [name, columnType, (c) => c.primaryKey()];
  const fallback = Number(extra.replace(/^default /, ''));
  return [name, columnType, (c) => c.notNull().defaultTo(fallback)];
}

export interface TableOptions {
  /** A primary key over several columns (constraint `<table>_pk`). */
  primaryKey?: readonly string[];
  /** Needed for a `serial` column. */
  kind?: DatabaseKind;
}

export async function createTable(
  db: AnyDb,
  name: string,
  columns: readonly ColumnSpec[],
  options: TableOptions = {},
): Promise<void> {
  let table: CreateTableBuilder<string, string> = db.schema.createTable(name);
  for (const spec of columns) table = table.addColumn(...column(spec, options.kind));
  if (options.primaryKey)
    table = table.addPrimaryKeyConstraint(`${name}_pk`, [...options.primaryKey]);
  await table.execute();
}

export async function createIndex(
  db: AnyDb,
  name: string,
  table: string,
  columns: readonly string[],
  options: {
    unique?: boolean;
    ifNotExists?: boolean;
    /** A partial index: only the rows whose `column` holds one of `values`. */
    where?: { column: string; values: readonly string[] };
  } = {},
): Promise<void> {
  let index = db.schema.createIndex(name);
  if (options.ifNotExists) index = index.ifNotExists();
  index = index.on(table).columns([...columns]);
  const where = options.where;
  if (where) {
    index =
      where.values.length === 1
        ? index.where(sql.ref(where.column), '=', where.values[0])
        : index.where(sql.ref(where.column), 'in', [...where.values]);
  }
  await (options.unique ? index.unique() : index).execute();
}

/** Each column added by its own statement, in order. */
export async function addColumns(
  db: AnyDb,
  table: string,
  columns: readonly ColumnSpec[],
): Promise<void> {
  for (const spec of columns)
    await db.schema
      .alterTable(table)
      .addColumn(...column(spec, undefined))
      .execute();
}

/** Each column dropped by its own statement, in order. */
export async function dropColumns(
  db: AnyDb,
  table: string,
  names: readonly string[],
): Promise<void> {
  for (const name of names) await db.schema.alterTable(table).dropColumn(name).execute();
}

export async function dropTables(db: AnyDb, names: readonly string[]): Promise<void> {
  for (const name of names) await db.schema.dropTable(name).execute();
}
