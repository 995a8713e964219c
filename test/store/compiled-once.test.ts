/**
 * A statement compiled once and run with new values each time: on a real SQLite database
 * (through Kysely), each run writes its own values, the constants stay, a value used in
 * several places goes to each of them, and the statement is built only once.
 */
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Generated } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../src/store/repos/compiled-once.js';

interface Db {
  item: { id: Generated<number>; name: string; kind: string; made_at: number; seen_at: number };
}

describe('compiledOnce', () => {
  let db: Kysely<Db>;
  beforeEach(async () => {
    db = new Kysely<Db>({
      dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }),
    });
    await db.schema
      .createTable('item')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('made_at', 'integer', (c) => c.notNull())
      .addColumn('seen_at', 'integer', (c) => c.notNull())
      .execute();
  });
  afterEach(async () => {
    await db.destroy();
  });

  it('runs with each call’s values, keeps constants, and builds the statement once', async () => {
    let builds = 0;
    const insert = compiledOnce(['name', 'at'], (v) => {
      builds += 1;
      return db
        .insertInto('item')
        .values({
          name: v.name as string,
          kind: 'fixed',
          made_at: v.at as number,
          seen_at: v.at as number,
        })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('id');
    });

    const first = await db.executeQuery<{ id: number }>(insert({ name: 'a', at: 100 }));
    const second = await db.executeQuery<{ id: number }>(insert({ name: 'b', at: 200 }));
    const again = await db.executeQuery<{ id: number }>(insert({ name: 'a', at: 300 }));

    expect(builds).toBe(1);
    expect(first.rows).toHaveLength(1);
    expect(second.rows).toHaveLength(1);
    expect(again.rows).toHaveLength(0); // the conflict clause was compiled in too
    const rows = await db.selectFrom('item').selectAll().orderBy('id').execute();
    expect(rows).toEqual([
      { id: first.rows[0]!.id, name: 'a', kind: 'fixed', made_at: 100, seen_at: 100 },
      { id: second.rows[0]!.id, name: 'b', kind: 'fixed', made_at: 200, seen_at: 200 },
    ]);
  });

  it('gives the same SQL and parameters as building the statement afresh', () => {
    const build = (v: { name: unknown; at: unknown }) =>
      db
        .insertInto('item')
        .values({ name: v.name as string, kind: 'k', made_at: v.at as number, seen_at: 7 });
    const insert = compiledOnce(['name', 'at'], build);
    const once = insert({ name: 'x', at: 5 });
    const fresh = build({ name: 'x', at: 5 }).compile();
    expect(once.sql).toBe(fresh.sql);
    expect(once.parameters).toEqual(fresh.parameters);
    expect(once.query.kind).toBe('InsertQueryNode');
    expect(insert({ name: 'y', at: 6 }).queryId).not.toBe(once.queryId);
  });

  it('refuses a statement that leaves a named value out', () => {
    const insert = compiledOnce(['name', 'at'], (v) =>
      db.insertInto('item').values({ name: v.name as string, kind: 'k', made_at: 1, seen_at: 1 }),
    );
    expect(() => insert({ name: 'x', at: 1 })).toThrow(/never used: at/);
  });
});
