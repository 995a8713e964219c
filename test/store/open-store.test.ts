import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  openStore,
  parseDatabaseUrl,
  StoreConfigError,
  StoreError,
} from '../../src/store/index.js';
import {
  createSqliteHarness,
  harnessPer,
  samplePayload,
  sampleRun,
  sampleTrigger,
} from './harness.js';
import { rejectionOf } from '../helpers/rejection.js';

describe('parseDatabaseUrl', () => {
  it.each([
    ['sqlite:./data/agent-relay.db', { kind: 'sqlite', path: './data/agent-relay.db' }],
    ['sqlite:/var/lib/relay.db', { kind: 'sqlite', path: '/var/lib/relay.db' }],
    ['sqlite:///var/lib/relay.db', { kind: 'sqlite', path: '/var/lib/relay.db' }],
    ['sqlite::memory:', { kind: 'sqlite', path: ':memory:' }],
    ['./data/agent-relay.db', { kind: 'sqlite', path: './data/agent-relay.db' }],
    ['relay.db', { kind: 'sqlite', path: 'relay.db' }],
    ['postgres://u:p@db:5432/relay', { kind: 'postgres', url: 'postgres://u:p@db:5432/relay' }],
    ['postgresql://db/relay', { kind: 'postgres', url: 'postgresql://db/relay' }],
  ])('%s', (url, expected) => {
    expect(parseDatabaseUrl(url)).toEqual(expected);
  });

  it.each(['', '   ', 'sqlite:', 'mysql://db/relay', 'http://x/y'])('rejects %j', (url) => {
    expect(() => parseDatabaseUrl(url)).toThrow(StoreConfigError);
    try {
      parseDatabaseUrl(url);
    } catch (err) {
      expect((err as StoreConfigError).code).toBe('invalid_database_url');
    }
  });
});

describe('openStore', () => {
  const temp = harnessPer(createSqliteHarness);

  it('creates the parent directory and sets the pragmas', async () => {
    const store = await temp.open();
    expect(existsSync(temp.path)).toBe(true);
    await store.ping();
    await store.close();
    const raw = new BetterSqlite3(temp.path);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('keeps the database to its owner: directory 0700, file, log and index 0600, under any umask', async () => {
    const previous = process.umask(0o000);
    try {
      const store = await temp.open();
      await store.settings.set('slack:T1:C1', 'model', 'big', 'U1', 1);
      const mode = (p: string) => statSync(p).mode & 0o777;
      expect(mode(dirname(temp.path))).toBe(0o700);
      expect(existsSync(`${temp.path}-wal`)).toBe(true);
      for (const file of [temp.path, `${temp.path}-wal`, `${temp.path}-shm`])
        expect(mode(file), file).toBe(0o600);
      await store.close();
    } finally {
      process.umask(previous);
    }
  });

  it('migrates idempotently: reopen and migrate() again change nothing', async () => {
    const first = await temp.open();
    await first.migrate();
    await first.close();
    const second = await temp.open();
    await second.migrate();
    await second.close();
    const raw = new BetterSqlite3(temp.path);
    const applied = raw.prepare('select name from kysely_migration order by name').all();
    const tables = raw
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'kysely%' and name not like 'sqlite%' order by name",
      )
      .all();
    raw.close();
    expect(applied).toEqual([
      { name: '001-initial' },
      { name: '002-runs-updated-at' },
      { name: '003-leases' },
      { name: '004-start-messages' },
      { name: '005-run-states' },
      { name: '006-slack-installations' },
      { name: '007-runs-earlier-run-time' },
      { name: '008-inbox-own-lane' },
      { name: '009-refusals' },
      { name: '010-console-sessions' },
      { name: '011-home-viewers' },
      { name: '012-reaction-ids' },
      { name: '013-runs-usage' },
      { name: '014-blocked-descendants' },
      { name: '015-runs-requester-backfill' },
      { name: '016-linear-sessions' },
      { name: '017-run-reviews' },
      { name: '018-blocked-descendant-answers' },
      { name: '019-open-queue-indexes' },
    ]);
    expect(tables.map((t) => (t as { name: string }).name)).toEqual([
      'blocked_descendants',
      'console_sessions',
      'home_viewers',
      'inbox',
      'installation_teams',
      'installations',
      'leases',
      'linear_sessions',
      'login_pins',
      'outbox',
      'reaction_ids',
      'refusals',
      'run_states',
      'runs',
      'settings',
      'start_messages',
      'thread_aliases',
      'threads',
      'used_once',
    ]);
  });

  it('keeps data across close and reopen (restart)', async () => {
    const store = await temp.open();
    await store.runs.insert(sampleRun());
    await store.inbox.add(sampleTrigger(), 1);
    await store.outbox.enqueue(samplePayload('slack:T1:C1:100.1'), 1);
    await store.settings.set('slack:T1:C1', 'model', 'big', 'U1', 1);
    await store.threads.addAlias('slack:T1:C1:2.2', 'slack:T1:C1:100.1');
    await store.close();
    await store.close(); // idempotent

    const reopened = await temp.open();
    expect(await reopened.runs.get('run-1')).toEqual(sampleRun());
    expect(await reopened.inboxQueue.depth()).toBe(1);
    expect(await reopened.outboxQueue.depth()).toBe(1);
    expect((await reopened.settings.list('slack:T1:C1'))[0]?.value).toBe('big');
    expect(await reopened.threads.resolve('slack:T1:C1:2.2')).toBe('slack:T1:C1:100.1');
    expect(await reopened.inbox.add(sampleTrigger(), 2)).toBe(false); // dedupe survives too
  });

  it('accepts a plain file path and sqlite::memory:', async () => {
    const plain = await openStore({ databaseUrl: join(temp.dir, 'plain', 'x.db') });
    await plain.ping();
    await plain.close();
    expect(existsSync(join(temp.dir, 'plain', 'x.db'))).toBe(true);
    const memory = await openStore({ databaseUrl: 'sqlite::memory:' });
    expect(await memory.inbox.add(sampleTrigger(), 1)).toBe(true);
    await memory.close();
  });

  it('turns SQLITE_BUSY into a retryable StoreError with code busy, keeping the cause', async () => {
    const store = await temp.open({ busyTimeoutMs: 50 });
    await temp.whileLocked(async () => {
      const error = await rejectionOf(store.inbox.add(sampleTrigger(), 1), StoreError);
      expect(error).toMatchObject({ code: 'busy', retryable: true });
      expect(error.cause).toMatchObject({
        code: expect.stringMatching(/^SQLITE_BUSY/),
      });
      // Transactions wait for the write lock up front and fail the same way.
      await expect(
        store.transaction((tx) => tx.settings.unset('s', 'model')),
      ).rejects.toMatchObject({
        code: 'busy',
      });
    });
    // Once the lock is gone the store works again.
    expect(await store.inbox.add(sampleTrigger(), 1)).toBe(true);
    await store.ping();
  });

  it('reports a file that is not a database as corrupt', async () => {
    const { writeFile, mkdir } = await import('node:fs/promises');
    await mkdir(join(temp.dir, 'bad'), { recursive: true });
    const path = join(temp.dir, 'bad', 'junk.db');
    await writeFile(path, 'this is not a sqlite database, just some text '.repeat(200));
    await expect(openStore({ databaseUrl: `sqlite:${path}` })).rejects.toMatchObject({
      name: 'StoreError',
      code: 'corrupt',
      retryable: false,
    });
  });

  it('ping fails with a StoreError after close', async () => {
    const store = await temp.open();
    await store.close();
    await expect(store.ping()).rejects.toMatchObject({ name: 'StoreError', code: 'closed' });
  });
});
