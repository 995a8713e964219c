/**
 * The Linear path on PostgreSQL: the same service, its store on a real PostgreSQL database
 * instead of SQLite. A delegated issue whose run asks, is answered and succeeds; a Stop that
 * interrupts. Skipped, with a warning, only where PostgreSQL cannot be started.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDatabase, startPostgres, type PostgresServer } from '../store/postgres-server.js';
import { startLinearWorld, type LinearWorld } from '../helpers/linear.js';

const server: PostgresServer | undefined = await startPostgres().catch((err: unknown) => {
  console.warn('Linear on PostgreSQL skipped: starting PostgreSQL failed', err);
  return undefined;
});
if (!server) console.warn('Linear on PostgreSQL skipped: no TEST_POSTGRES_URL and no initdb');

let world: LinearWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});
afterAll(async () => {
  await server?.stop();
});

let databases = 0;
async function worldOnPostgres(): Promise<LinearWorld> {
  databases += 1;
  const url = await createDatabase(server!.url, `relay_linear_${databases}`);
  return startLinearWorld({ env: { DATABASE_URL: url } });
}

describe.skipIf(!server)('Linear on PostgreSQL', () => {
  it('delegate → thought → elicitation → the answer → response with links', async () => {
    world = await worldOnPostgres();
    expect(world.relay.config.databaseUrl).toMatch(/^postgres(ql)?:\/\//);
    const { linear, emulator } = world;
    const { session } = await linear.openSession({ title: 'Pick the schema [block]' });
    const first = await world.waitForActivity(session.id, () => true);
    expect(first.content).toEqual({ type: 'thought', body: 'Starting a cloud agent run…' });
    await world.waitForActivity(session.id, (a) => a.content.type === 'elicitation');
    await linear.prompt(session.id, 'The second one');
    const done = await world.waitForActivity(
      session.id,
      (a) => a.content.type === 'response' && (a.content.body ?? '').startsWith('Done'),
      15_000,
    );
    expect(done.content.body).toMatch(/\[Session\]\(http:\/\/127\.0\.0\.1:\d+\/sessions\//);
    expect(emulator.runs.count()).toBe(1);
    expect(emulator.followups).toHaveLength(1);
    expect(linear.sessions.get(session.id)!.externalUrls).toHaveLength(1);
  });

  it('Stop interrupts the working run and ends the turn with a response', async () => {
    world = await worldOnPostgres();
    const { linear, emulator } = world;
    const { session } = await linear.openSession({ title: 'Long job [slow]' });
    await world.waitForActivity(session.id, (a) => a.content.body === 'Running…');
    await linear.prompt(session.id, '', { signal: 'stop' });
    await world.waitForActivity(
      session.id,
      (a) => a.content.type === 'response' && (a.content.body ?? '').includes('stopped the agent'),
    );
    expect(emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
    expect(emulator.runs.all()[0]!.state).toBe('BLOCKED');
  });
});
