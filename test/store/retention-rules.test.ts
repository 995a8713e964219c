/**
 * Every table has a retention rule: the table in docs/reliability.md ("Data kept in the
 * database") names each table of a migrated database, whether it is pruned or kept for ever
 * on purpose, and names no table that does not exist. A new migration's table fails here
 * until its rule is written down (and, unless it is one row per place or person, enforced by
 * the retention worker).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { ROOT } from '../helpers/child-process.js';
import { createSqliteHarness } from './harness.js';
import type { SqliteHarness } from './harness.js';

let temp: SqliteHarness | undefined;
afterEach(() => temp?.cleanup());

/** The tables named in the first column of the retention table. */
function documentedTables(): Set<string> {
  const page = readFileSync(join(ROOT, 'docs/reliability.md'), 'utf8');
  const start = page.indexOf('| table | kept |');
  expect(start, 'the retention table in docs/reliability.md').toBeGreaterThan(0);
  const rows = page
    .slice(start)
    .split('\n')
    .slice(2)
    .map((line) => line.trim())
    .filter((line, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('|')));
  const names = rows.flatMap((row) => {
    const first = row.split('|')[1] ?? '';
    return [...first.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
  });
  return new Set(names);
}

it('names every table of a migrated database, and only those', async () => {
  temp = await createSqliteHarness();
  const store = await temp.open();
  await store.close();
  const db = new BetterSqlite3(temp.path, { readonly: true });
  const tables = db
    .prepare<[], { name: string }>(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'",
    )
    .all()
    .map((row) => row.name);
  db.close();
  expect(tables.length).toBeGreaterThan(10);
  const documented = documentedTables();
  expect(tables.filter((t) => !documented.has(t)).sort(), 'tables without a rule').toEqual([]);
  expect([...documented].filter((t) => !tables.includes(t)).sort(), 'rules for no table').toEqual(
    [],
  );
});
