/**
 * What the crash test prints when it fails: where every run, trigger and notification is
 * (service, relay database, platforms), and everything about one token's thread.
 */
import BetterSqlite3 from 'better-sqlite3';
import type { Child } from '../helpers/child-process.js';
import { TOKEN } from './crash-triggers.js';
import type { CrashWorld } from './crash-world.js';

function withDb<T>(path: string, read: (db: BetterSqlite3.Database) => T): T {
  const db = new BetterSqlite3(path, { readonly: true, timeout: 5_000 });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export function crashSummary(world: CrashWorld, databasePath: string): string {
  return withDb(databasePath, (db) => {
    const group = (table: string) =>
      db
        .prepare(`select status, count(*) as n, max(last_error) as e from ${table} group by status`)
        .all();
    const runs = world.emulator.runs.all();
    const states: Record<string, number> = {};
    for (const r of runs) states[r.state] = (states[r.state] ?? 0) + 1;
    const outcomes = world.outcomes();
    return JSON.stringify({
      serviceRuns: runs.length,
      states,
      relayRuns: (db.prepare('select count(*) as n from runs').get() as { n: number }).n,
      inbox: group('inbox'),
      outbox: group('outbox'),
      outcomes: outcomes.length,
      missingOutcomes: runs
        .map((r) => TOKEN.exec(r.title)?.[1] ?? r.title)
        .filter((t) => !outcomes.some((o) => TOKEN.exec(o)?.[1] === t)),
      statusPosts: world.statusPosts().length,
    });
  });
}

export function crashTrace(
  world: CrashWorld,
  databasePath: string,
  token: string,
  children: readonly Child[],
): string {
  const calls = world.slack.calls
    .filter((c) => String(c.params.text ?? '').includes(`task ${token}`))
    .map((c) => {
      const where = `ts=${String(c.params.ts ?? '')} thread=${String(c.params.thread_ts ?? '')}`;
      return `${c.at} ${c.method} ${c.status} ${c.error ?? ''} ${where} ${String(c.params.text).slice(0, 60)}`;
    });
  return withDb(databasePath, (db) => {
    const run = db
      .prepare(
        'select run_id, state, notified_state, status_message, tracked, thread_key from runs where title like ?',
      )
      .get(`%task ${token} %`) as Record<string, unknown> | undefined;
    const rows = run
      ? db
          .prepare(
            'select id, status, attempts, last_error, substr(payload, 1, 160) as p from outbox where payload like ?',
          )
          .all(`%${String(run.run_id)}%`)
      : [];
    const log = children
      .flatMap((c) => c.lines)
      .filter((l) => run !== undefined && JSON.stringify(l).includes(String(run.run_id)))
      .map((l) => `${String(l.time)} ${String(l.msg)}`)
      .slice(0, 40);
    return JSON.stringify({ calls, run, rows, log }, null, 1);
  });
}
