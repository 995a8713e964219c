/**
 * A real PgBouncer (Debian's `pgbouncer` package) in transaction mode in front of a test
 * PostgreSQL, as replicas run behind one in production: each transaction gets whichever server
 * connection is free, so nothing may rely on a session (prepared statements by name, session
 * settings, session advisory locks, LISTEN). Undefined when `pgbouncer` is not installed, so the
 * suite can say so and run straight against PostgreSQL. As root it runs as `nobody`, as the
 * test PostgreSQL does (PgBouncer refuses to run as root).
 */
import { spawn } from 'node:child_process';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { asServerUser, freePort } from './postgres-server.js';

export interface PgBouncer {
  /** `databaseUrl` with PgBouncer's host and port instead of PostgreSQL's. */
  urlFor(databaseUrl: string): string;
  /** Transactions PgBouncer has passed on so far (its admin console's SHOW STATS), all databases. */
  transactions(): Promise<number>;
  /** Its pool mode, as its admin console reports it. */
  poolMode(): Promise<string>;
  stop(): Promise<void>;
}

const BINARIES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];

async function installed(): Promise<string | undefined> {
  const { access } = await import('node:fs/promises');
  for (const path of BINARIES) {
    try {
      await access(path);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startPgBouncer(upstreamUrl: string): Promise<PgBouncer | undefined> {
  const binary = await installed();
  if (binary === undefined) return undefined;
  const upstream = new URL(upstreamUrl);
  const root = process.getuid?.() === 0;
  const dir = await mkdtemp(join(tmpdir(), 'agent-relay-pgbouncer-'));
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  await writeFile(join(dir, 'users.txt'), '"postgres" ""\n');
  await writeFile(
    ini,
    [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      'admin_users = postgres',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 1000',
      'default_pool_size = 20',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  if (root) {
    const { execFileSync } = await import('node:child_process');
    const uid = Number(execFileSync('id', ['-u', 'nobody']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'nobody']).toString().trim());
    for (const path of [dir, ini, join(dir, 'users.txt')]) await chown(path, uid, gid);
  }
  const child = root
    ? spawn('su', ['nobody', '-s', '/bin/sh', '-c', `exec ${binary} ${ini}`], { stdio: 'ignore' })
    : spawn(binary, [ini], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !(await listening(port)); i++) {
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!(await listening(port))) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw new Error(`pgbouncer did not listen on ${port} (see its log in ${dir})`);
  }
  /** A statement on PgBouncer's admin console (simple protocol only, hence no parameters). */
  async function admin<R>(statement: string): Promise<R[]> {
    const client = new pg.Client({
      connectionString: `postgres://postgres@127.0.0.1:${port}/pgbouncer`,
    });
    await client.connect();
    try {
      return (await client.query(statement)).rows as R[];
    } finally {
      await client.end();
    }
  }
  return {
    urlFor(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async transactions() {
      const rows = await admin<{ total_xact_count: string }>('SHOW STATS');
      return rows.reduce((n, r) => n + Number(r.total_xact_count), 0);
    },
    async poolMode() {
      const rows = await admin<{ key: string; value: string }>('SHOW CONFIG');
      return rows.find((r) => r.key === 'pool_mode')?.value ?? '';
    },
    async stop() {
      // Its pid file is the process's own (su execs it); SIGINT: a safe shutdown.
      await asServerUser(`kill -INT $(cat ${join(dir, 'pgbouncer.pid')})`, root).catch(() => {});
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
