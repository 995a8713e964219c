/**
 * What each migration sends to each database, statement by statement, pinned in a snapshot: a
 * migration that has shipped must keep producing exactly the same schema, however its code is
 * written. (The contract suites check the schema works; this checks it is the same.)
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/store/migrations/index.js';

const DIALECTS = {
  sqlite: [SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler],
  postgres: [PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler],
} as const;

describe.each(['sqlite', 'postgres'] as const)('the migrations on %s', (kind) => {
  it('send the same statements as when they shipped', async () => {
    const [Adapter, Introspector, Compiler] = DIALECTS[kind];
    const sent: string[] = [];
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = new Kysely<any>({
      dialect: {
        createAdapter: () => new Adapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (k) => new Introspector(k),
        createQueryCompiler: () => new Compiler(),
      },
      log: (event) => {
        sent.push(`${event.query.sql} ${JSON.stringify(event.query.parameters)}`);
      },
    });
    const migrations = await migrationProvider(kind).getMigrations();
    const statements: Record<string, { up: string[]; down: string[] }> = {};
    for (const [name, migration] of Object.entries(migrations)) {
      await migration.up(db);
      const up = sent.splice(0);
      await migration.down?.(db);
      statements[name] = { up, down: sent.splice(0) };
    }
    expect(Object.keys(statements)).toHaveLength(19);
    expect(statements).toMatchSnapshot();
  });
});
