/**
 * A throwaway PostgreSQL server for the store tests: `TEST_POSTGRES_URL` when set, else a
 * fresh cluster made with `initdb` (as `nobody` when running as root, which initdb refuses)
 * on a free loopback port. Undefined when neither is possible, so the suite can skip.
 */
import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface PostgresServer {
  /** Admin URL (a database the tests may create schemas in). */
  url: string;
  stop(): Promise<void>;
  /**
   * Stop the server (fast shutdown: sessions are cut) and start it again on the same data
   * and port, for outage tests. Absent for a server given by TEST_POSTGRES_URL.
   */
  halt?(): Promise<void>;
  resume?(): Promise<void>;
  /** The server's log (what it writes to stderr), for a test that reads the plans it logged. */
  logFile?: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function asServerUser(command: string, root: boolean): Promise<void> {
  if (root) await run('su', ['nobody', '-s', '/bin/sh', '-c', command], { timeout: 30_000 });
  else await run('/bin/sh', ['-c', command], { timeout: 30_000 });
}

export async function startPostgres(): Promise<PostgresServer | undefined> {
  const fromEnv = process.env.TEST_POSTGRES_URL;
  if (fromEnv) return { url: fromEnv, stop: async () => {} };
  try {
    await run('initdb', ['--version']);
  } catch {
    return undefined;
  }
  const root = process.getuid?.() === 0;
  const dir = await mkdtemp(join(tmpdir(), 'agent-relay-pg-'));
  try {
    if (root) {
      const { stdout } = await run('id', ['-u', 'nobody']);
      const { stdout: gid } = await run('id', ['-g', 'nobody']);
      await chown(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    const port = await freePort();
    const data = join(dir, 'data');
    await asServerUser(
      `initdb -D ${data} -U postgres --auth=trust -E UTF8 --no-sync >/dev/null`,
      root,
    );
    const start = () =>
      asServerUser(
        `pg_ctl -D ${data} -l ${join(dir, 'log')} -o "-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off" -w start >/dev/null`,
        root,
      );
    await start();
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      halt: () => asServerUser(`pg_ctl -D ${data} -m fast -w stop >/dev/null`, root),
      resume: start,
      logFile: join(dir, 'log'),
      async stop() {
        await asServerUser(`pg_ctl -D ${data} -m immediate -w stop >/dev/null`, root).catch(
          () => {},
        );
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

let schemaCounter = 0;

/** A fresh schema on the server; stores opened with the returned URL live in it. */
export async function createSchema(
  adminUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  schemaCounter += 1;
  const schema = `relay_test_${process.pid}_${schemaCounter}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop schema ${schema} cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A fresh, empty database on the server (dropped first if a previous run left it), for a
 * test that needs its own: Kysely's migrator looks for its tables in every schema, so two
 * migrated schemas on one database would confuse it.
 */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
