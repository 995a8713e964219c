/**
 * PostgreSQL goes away under load and comes back. A replica process (as `agent-relay start`
 * runs it) on a real PostgreSQL takes a steady stream of Slack and GitHub triggers; the
 * server is stopped (sessions cut) and started again. Meanwhile the platforms get the retry
 * statuses they expect (Slack 500, GitHub 503: both deliver again), /healthz stays 200 and
 * /readyz says 503; afterwards the pool reconnects by itself, /readyz says 200, and every
 * acknowledged trigger is carried out exactly once, its outcome told once.
 */
import { afterAll, expect, it } from 'vitest';
import { isEndedState } from '../../src/agent/schemas.js';
import { createDatabase, startPostgres, type PostgresServer } from '../store/postgres-server.js';
import { waitUntil } from '../helpers/wait-until.js';
import { githubTrigger, slackTrigger, type CrashTrigger } from './crash-triggers.js';
import { startReplicaWorld, type ReplicaWorld } from './replica-world.js';

const server: PostgresServer | undefined = await startPostgres().catch((err: unknown) => {
  console.warn('PostgreSQL outage test skipped: starting PostgreSQL failed', err);
  return undefined;
});
if (!server) console.warn('PostgreSQL outage test skipped: no initdb on PATH');
const restartable = server?.halt !== undefined && server.resume !== undefined;
if (server && !restartable)
  console.warn('PostgreSQL outage test skipped: TEST_POSTGRES_URL cannot be stopped');

let world: ReplicaWorld | undefined;
afterAll(async () => {
  await world?.close();
  await server?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it.skipIf(!restartable)(
  'stopped and started under load: retry statuses meanwhile, /readyz truthful, nothing acknowledged lost or doubled',
  async () => {
    const url = await createDatabase(server!.url, 'relay_outage');
    const w = (world = await startReplicaWorld(url, {
      queuedMs: 50,
      pendingMs: 50,
      claimedMs: 50,
      runMs: 400,
    }));
    const replica = await w.start('r1');

    const triggers: CrashTrigger[] = [];
    for (let i = 0; i < 30; i++) triggers.push(slackTrigger(i, false));
    for (let j = 0; j < 10; j++) triggers.push(githubTrigger(j, false));
    const answers: { platform: string; status: number }[] = [];
    const acknowledged = new Set<string>();
    // The platforms deliver until acknowledged: Slack and GitHub both try again on a 5xx.
    const deliverAll = Promise.all(
      triggers.map(async (t, k) => {
        await sleep(k * 60);
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline) {
          const status = await t.send(replica.url).catch(() => 0);
          answers.push({ platform: t.platform, status });
          if (status >= 200 && status < 300) {
            acknowledged.add(t.token);
            return;
          }
          await sleep(250);
        }
        throw new Error(`${t.token} never acknowledged`);
      }),
    );

    // Some triggers in: the database goes away.
    await waitUntil(() => acknowledged.size >= 8, { timeoutMs: 15_000, intervalMs: 10 });
    await server!.halt!();
    await sleep(500);
    expect(replica.child.process.exitCode, replica.child.stderr().slice(-2_000)).toBeNull();
    expect((await fetch(`${replica.url}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${replica.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(JSON.stringify(await notReady.json())).toMatch(/database/);
    await sleep(2_000);
    await server!.resume!();

    // The pool reconnects by itself; every trigger is acknowledged in the end.
    await waitUntil(async () => (await fetch(`${replica.url}/readyz`)).status === 200, {
      timeoutMs: 15_000,
      intervalMs: 100,
    });
    await deliverAll;

    // While it was down, the answers were the platforms' retry statuses, never a hang.
    const failed = answers.filter((a) => a.status < 200 || a.status >= 300);
    expect(failed.length).toBeGreaterThan(0);
    for (const a of failed) expect(a.status).toBe(a.platform === 'slack' ? 500 : 503);

    await waitUntil(
      () =>
        w.emulator.runs.count() === triggers.length &&
        w.emulator.runs.all().every((r) => isEndedState(r.state)) &&
        w.outcomes().length >= triggers.length,
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    await sleep(1_000); // a duplicate would show now

    const stamps = w.emulator.runs.all().map((r) => r.metadata?.relay_request ?? '');
    expect(stamps.map((s) => s.replace(/^(slack|github):/, '')).sort()).toEqual(
      triggers.map((t) => t.deliveryId).sort(),
    );
    const once = Object.fromEntries(triggers.map((t) => [t.token, 1]));
    expect(w.countPerToken(w.outcomes())).toEqual(once);
    expect(w.countPerToken(w.statusPosts())).toEqual(once);
    // The process lived through it.
    expect(replica.child.process.exitCode).toBeNull();
  },
  90_000,
);
