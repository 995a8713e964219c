/**
 * `agent-relay migrate --from sqlite:PATH --to postgres://…`: a real SQLite file written by
 * the store, copied into a real PostgreSQL, read back through the store there. Skipped (with
 * a warning) only where no PostgreSQL can be started.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { openStore } from '../../src/store/index.js';
import type { OpenedStore } from '../../src/store/index.js';
import { createSqliteHarness, samplePayload, sampleRun, sampleTrigger } from './harness.js';
import type { SqliteHarness } from './harness.js';
import { createDatabase, startPostgres } from './postgres-server.js';
import type { PostgresServer } from './postgres-server.js';

const server: PostgresServer | undefined = await startPostgres().catch((err: unknown) => {
  console.warn('copy-to-PostgreSQL tests skipped: starting a server failed', err);
  return undefined;
});
if (!server) console.warn('copy-to-PostgreSQL tests skipped: no TEST_POSTGRES_URL and no initdb');

function captureIo() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env: {} },
  };
}

let sqlite: SqliteHarness;
afterAll(async () => {
  await sqlite?.cleanup();
  await server?.stop();
});

/** A deployment's worth of data: threads and an alias, runs, inbox and outbox items, settings. */
async function fill(store: OpenedStore): Promise<void> {
  await store.threads.upsert(
    { threadKey: 'slack:T1:C1:100.1', platform: 'slack', currentRunId: 'run-1', startedBy: 'U1' },
    10,
  );
  await store.threads.upsert({ threadKey: 'github:octo/repo#7', platform: 'github' }, 11);
  await store.threads.addAlias('slack:T1:C1:', 'slack:T1:C1:100.1');
  await store.runs.insert(
    sampleRun({
      factory: { uid: 'f-1', alias: 'docs' },
      triggerMessage: { threadKey: 'slack:T1:C1:100.1', id: 'C1:100.1' },
      statusMessage: { threadKey: 'slack:T1:C1:100.1', id: 'C1:100.2' },
      notifiedState: 'SUCCEEDED',
      state: 'SUCCEEDED',
      serviceUpdatedAt: '2030-01-01T00:00:00.000Z',
      tracked: false,
      updatedAt: 1_712_000_000_123,
    }),
  );
  for (let i = 2; i <= 700; i += 1) {
    await store.runs.insert(sampleRun({ runId: `run-${i}`, requestId: `req-${i}`, createdAt: i }));
  }
  await store.inbox.add(sampleTrigger({ deliveryId: 'Ev1' }), 100);
  await store.inbox.add(sampleTrigger({ deliveryId: 'Ev2', threadKey: 'github:octo/repo#7' }), 101);
  await store.inbox.complete(1, 102);
  // Two slash-command prompts of one channel: each its own lane in the queue (own_lane).
  for (const deliveryId of ['cmd:p1', 'cmd:p2']) {
    await store.inbox.add(
      sampleTrigger({
        deliveryId,
        kind: 'slash_command',
        threadKey: 'slack:T1:C1:',
        anchorsNewThread: true,
      }),
      102,
    );
  }
  await store.outbox.enqueue(samplePayload('slack:T1:C1:100.1', 'first'), 103);
  const second = await store.outbox.enqueue(samplePayload('github:octo/repo#7', 'second'), 104);
  await store.outboxQueue.delivered(second, 105);
  await store.settings.set('slack:T1:C1', 'model', 'big', 'U1', 106);
  await store.runs.update('run-2', { state: 'INPROGRESS', updatedAt: 107 });
  await store.installations.save(
    { platform: 'slack', enterpriseId: 'E1', teamId: '', isEnterpriseInstall: true, sealed: 'x' },
    108,
  );
  await store.installations.linkTeam('slack', 'T9', 'E1', 109);
}

describe.skipIf(!server)('migrate --from sqlite:… --to postgres://…', () => {
  let path: string;
  let source: OpenedStore;
  beforeAll(async () => {
    sqlite = await createSqliteHarness();
    path = sqlite.path;
    source = await sqlite.open();
    await fill(source);
  });

  it('copies every table, and the copy works as the store', async () => {
    const schema = { url: await createDatabase(server!.url, 'relay_copy_1') };
    const run = captureIo();
    const code = await main(['migrate', '--from', `sqlite:${path}`, `--to=${schema.url}`], run.io);
    expect(run.err).toEqual([]);
    expect(code).toBe(0);
    expect(run.out.join('\n')).toMatch(
      /copied SQLite at .* to PostgreSQL at .*: threads 2, thread_aliases 1, runs 700, inbox 4, outbox 2, settings 1, run_states 701, start_messages 0, installations 1, installation_teams 1, refusals 0/,
    );

    const target = await openStore({ databaseUrl: schema.url, poolSize: 2 });
    try {
      for (const id of ['run-1', 'run-2', 'run-700']) {
        expect(await target.runs.get(id)).toEqual(await source.runs.get(id));
      }
      expect(await target.runs.countTracked()).toBe(await source.runs.countTracked());
      expect(await target.threads.get('slack:T1:C1:100.1')).toEqual(
        await source.threads.get('slack:T1:C1:100.1'),
      );
      expect(await target.threads.resolve('slack:T1:C1:')).toBe('slack:T1:C1:100.1');
      for (const id of [2, 3, 4]) {
        expect(await target.inbox.get(id)).toEqual(await source.inbox.get(id));
      }
      expect(await target.outboxQueue.list()).toEqual(await source.outboxQueue.list());
      expect(await target.settings.list('slack:T1:C1')).toEqual(
        await source.settings.list('slack:T1:C1'),
      );
      const org = { platform: 'slack' as const, enterpriseId: 'E1', teamId: '' };
      expect(await target.installations.get(org)).toEqual(await source.installations.get(org));
      expect(await target.installations.enterpriseOf('slack', 'T9')).toBe('E1');
      expect(await target.operator?.stateHistory('run-2')).toEqual(
        await source.operator?.stateHistory('run-2'),
      );
      expect(await target.operator?.stateHistory('run-2')).toHaveLength(2);
      // The id sequences moved past the copied rows; the pending work is claimable there, the
      // two prompts side by side (had their lanes been lost, the second would wait).
      expect(
        await target.inbox.add(sampleTrigger({ deliveryId: 'Ev3', threadKey: 'x' }), 200),
      ).toBe(true);
      expect((await target.inboxQueue.claim(300, 1_000, 10)).map((i) => i.id).sort()).toEqual([
        2, 3, 4, 5,
      ]);
      expect(await target.outbox.enqueue(samplePayload('y'), 201)).toBe(3);
      // A delivery id already handled stays a duplicate after the move.
      expect(await target.inbox.add(sampleTrigger({ deliveryId: 'Ev1' }), 202)).toBe(false);
    } finally {
      await target.close();
    }
  });

  it('refuses a target that holds data, and leaves it as it was', async () => {
    const schema = { url: await createDatabase(server!.url, 'relay_copy_2') };
    const target = await openStore({ databaseUrl: schema.url, poolSize: 2 });
    await target.settings.set('other', 'model', 'x', 'U9', 1);
    await target.close();
    const run = captureIo();
    expect(await main(['migrate', '--from', `sqlite:${path}`, '--to', schema.url], run.io)).toBe(1);
    expect(run.err.join('\n')).toMatch(/already holds data \(1 rows in settings\)/);
    const again = await openStore({ databaseUrl: schema.url, poolSize: 2 });
    expect(await again.runs.get('run-1')).toBeUndefined();
    await again.close();
  });

  it('a missing source file, a lone --from, or no value: a clear error, nothing created', async () => {
    const missing = captureIo();
    expect(
      await main(['migrate', '--from', `sqlite:${path}.nope`, '--to', server!.url], missing.io),
    ).toBe(1);
    expect(missing.err.join('\n')).toMatch(/no SQLite database at .*\.nope/);
    const lone = captureIo();
    expect(await main(['migrate', '--from', `sqlite:${path}`], lone.io)).toBe(2);
    expect(lone.err.join('\n')).toMatch(/--from and --to go together/);
    const bare = captureIo();
    expect(await main(['migrate', '--to'], bare.io)).toBe(2);
    expect(bare.err.join('\n')).toMatch(/--to needs a value/);
  });
});
