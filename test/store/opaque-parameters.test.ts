/**
 * The parameters SQLite's planner would look into (an equality's value, LIMIT, OFFSET) are
 * written `+?` before a statement is prepared, and nothing else changes: quoted text,
 * identifiers, comments and other placeholders are left alone, and a real SQLite database
 * answers the rewritten statements exactly as the written ones.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { opaqueParameters } from '../../src/store/sqlite/opaque-parameters.js';

describe('opaque parameters', () => {
  it('writes an equality, a LIMIT and an OFFSET parameter with a unary plus', () => {
    expect(
      opaqueParameters(
        'select * from "outbox" where "status" = ? and "id" > ? and "n" in (?, ?) order by "id" limit ? offset ?',
      ),
    ).toBe(
      'select * from "outbox" where "status" = +? and "id" > ? and "n" in (?, ?) order by "id" limit +? offset +?',
    );
    expect(
      opaqueParameters(
        'update "t" set "a" = ?, "b"=? where "c" != ? and "d" <= ? and "e" is ? LIMIT\n?',
      ),
    ).toBe('update "t" set "a" = +?, "b"=+? where "c" != +? and "d" <= +? and "e" is +? LIMIT\n+?');
    // Inserts and other positions stay as they are.
    const insert = 'insert into "t" ("a", "b") values (?, ?) returning "id"';
    expect(opaqueParameters(insert)).toBe(insert);
  });

  it('leaves quoted text, quoted names, comments and numbered parameters alone', () => {
    const text = `select 'a = ?' as "x = ?", 'it''s = ?' from t -- where a = ?\nwhere b = ?1 /* limit ? */`;
    expect(opaqueParameters(text)).toBe(text);
    // A word that only ends in "limit" is not LIMIT.
    expect(opaqueParameters('select speedlimit ? from t')).toBe('select speedlimit ? from t');
  });

  it('changes no answer: the same rows for text, numbers, NULL and blobs, by index and by scan', () => {
    const db = new BetterSqlite3(':memory:');
    try {
      db.exec(
        'create table t (id integer primary key, n integer, s text, r real, b blob); ' +
          'create index t_n on t (n); create index t_s on t (s, id)',
      );
      const insert = db.prepare(opaqueParameters('insert into t (n, s, r, b) values (?, ?, ?, ?)'));
      for (let i = 0; i < 50; i++) {
        insert.run(i % 7, `s${i % 5}`, i / 4, Buffer.from([i % 3]));
      }
      insert.run(null, null, null, null);
      const cases: [string, unknown[]][] = [
        ['select id from t where n = ? order by id limit ?', [3, 4]],
        // Text compared with an integer column: the column's affinity applies either way.
        ['select id from t where n = ? order by id', ['3']],
        ['select id from t where s = ? and n >= ? order by id limit ? offset ?', ['s2', 2, 3, 1]],
        ['select id from t where r = ? order by id', [2.5]],
        ['select id from t where b = ? order by id', [Buffer.from([1])]],
        ['select id from t where n is ? order by id', [null]],
        ['select id from t where n = ? order by id', [null]],
        ['select count(*) as c from t where n != ?', [0]],
        ['select id from t where s = ? order by id desc limit ?', ['s4', 0]],
      ];
      for (const [sql, args] of cases) {
        const rewritten = opaqueParameters(sql);
        expect(rewritten, sql).toContain('+?');
        expect(db.prepare(rewritten).all(...args), sql).toEqual(db.prepare(sql).all(...args));
      }
      // Indexes are still used: the plus is on the value's side.
      const plan = db
        .prepare(`explain query plan ${opaqueParameters('select id from t where s = ? limit ?')}`)
        .all('s1', 2) as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING (COVERING )?INDEX t_s/);
    } finally {
      db.close();
    }
  });
});
