/**
 * POST /linear/webhooks against the real service: what is refused before anything is stored
 * (a bad or missing signature, a stale timestamp, a malformed body), a redelivery taken once,
 * and a team outside LINEAR_ALLOWED_TEAMS told so in its session.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { countRows } from '../helpers/relay.js';
import { startLinearWorld } from '../helpers/linear.js';
import { postRawWebhook } from '../helpers/platform-world.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startLinearWorld);

async function quiet(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** A world with a session open and answered: the session, and the inbox's row count then. */
async function withSession() {
  const world = await startWorld();
  const { linear } = world;
  const { session } = await linear.openSession({ title: 'first' });
  await world.waitForActivity(session.id, () => true);
  return { world, linear, session, before: countRows(world.relay.databasePath).inbox };
}

describe('POST /linear/webhooks', () => {
  it('answers 401 to a wrong or missing signature and stores nothing', async () => {
    const { world, linear, session, before } = await withSession();
    const body = linear.eventBody(session.id, 'prompted', {
      agentActivity: { content: { type: 'prompt', body: 'status' } },
    });
    const forged = await linear.send(body, {}, { secret: 'not-the-secret-at-all' });
    expect(forged.status).toBe(401);
    expect(forged.answer).toMatchObject({ ok: false, error: 'bad_signature' });
    const unsigned = await linear.send(body, { 'linear-signature': '' });
    expect(unsigned.status).toBe(401);
    // A body changed after signing does not verify either.
    const tampered = await postRawWebhook(world, body, {
      'linear-delivery': 'd-tampered',
      'linear-signature': 'a'.repeat(64),
    });
    expect(tampered.status).toBe(401);
    expect(countRows(world.relay.databasePath).inbox).toBe(before);
  });

  it('answers 401 to a webhookTimestamp more than 60 s away, or none', async () => {
    const { world, linear, session, before } = await withSession();
    for (const skew of [-61_000, 61_000]) {
      const stale = await linear.send(
        linear.eventBody(session.id, 'prompted', {
          webhookTimestamp: Date.now() + skew,
          agentActivity: { content: { type: 'prompt', body: 'status' } },
        }),
      );
      expect(stale.status).toBe(401);
      expect(stale.answer).toMatchObject({ error: 'stale_timestamp' });
    }
    // A signed body without a timestamp is no fresher.
    const unstamped = await linear.send(JSON.stringify({ type: 'Issue', action: 'update' }));
    expect(unstamped.status).toBe(401);
    expect(unstamped.answer).toMatchObject({ error: 'stale_timestamp' });
    expect(countRows(world.relay.databasePath).inbox).toBe(before);
  });

  it('takes a redelivery (the same Linear-Delivery) once: one run, one thought', async () => {
    const world = await startWorld();
    const { linear } = world;
    const { session, sent } = await linear.openSession({ title: 'once' });
    const again = await linear.send(sent.body, {}, { deliveryId: sent.deliveryId });
    expect(again.status).toBe(200);
    expect(again.answer).toMatchObject({ ok: true, result: 'duplicate' });
    await world.waitForActivity(session.id, (a) => a.content.type === 'response');
    expect(world.emulator.runs.count()).toBe(1);
    const thoughts = linear
      .activitiesOf(session.id)
      .filter((a) => a.content.body === 'Starting a cloud agent run…');
    expect(thoughts).toHaveLength(1);
  });

  it('takes a signed body sent again under new Linear-Delivery ids once: one run, one follow-up', async () => {
    const world = await startWorld();
    const { linear } = world;
    const { session, sent } = await linear.openSession({ title: 'once [slow]' });
    for (const deliveryId of ['replay-a', 'replay-b']) {
      const again = await linear.send(sent.body, {}, { deliveryId });
      expect(again.answer).toMatchObject({ ok: true, result: 'duplicate' });
    }
    await world.waitForActivity(session.id, (a) => a.content.body === 'Running…');
    const prompt = await linear.prompt(session.id, 'also update the docs');
    for (const deliveryId of ['replay-c', 'replay-d']) {
      const again = await linear.send(prompt.body, {}, { deliveryId });
      expect(again.answer).toMatchObject({ ok: true, result: 'duplicate' });
    }
    await quiet(500);
    expect(world.emulator.runs.count()).toBe(1);
    expect(world.emulator.followups.length).toBeLessThanOrEqual(1);
    expect(countRows(world.relay.databasePath).inbox).toBe(2);
  });

  it('answers 400 to a body that is not JSON or not an agent session event, and ignores other events', async () => {
    const world = await startWorld();
    const { linear } = world;
    const notJson = await linear.send('{nope');
    expect(notJson.status).toBe(400);
    const invalid = await linear.send(
      JSON.stringify({
        type: 'AgentSessionEvent',
        action: 'created',
        webhookTimestamp: Date.now(),
      }),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.answer).toMatchObject({ error: 'invalid_payload' });
    const other = await linear.send(
      JSON.stringify({ type: 'Issue', action: 'update', webhookTimestamp: Date.now() }),
    );
    expect(other.status).toBe(200);
    expect(other.answer).toMatchObject({ result: 'ignored' });
    const noDelivery = await linear.send(
      JSON.stringify({ type: 'Issue', action: 'update', webhookTimestamp: Date.now() }),
      { 'linear-delivery': '' },
    );
    expect(noDelivery.status).toBe(400);
    expect(countRows(world.relay.databasePath).inbox).toBe(0);
  });

  it('tells a session of a team outside LINEAR_ALLOWED_TEAMS, and starts nothing', async () => {
    const world = await startWorld({ env: { LINEAR_ALLOWED_TEAMS: 'DESIGN' } });
    const { linear } = world;
    const { session, sent } = await linear.openSession({ title: 'not here' });
    expect(sent.answer).toMatchObject({ ok: true, result: 'refused', detail: 'queued' });
    const told = await world.waitForActivity(session.id, () => true);
    expect(told.content.type).toBe('error');
    // As Markdown (its underscores escaped, since the notice is plain text), it names the setting.
    expect((told.content.body ?? '').replace(/\\(.)/g, '$1')).toContain('LINEAR_ALLOWED_TEAMS');
    // Told from the outbox's low lane, as every refusal is, behind the people it serves.
    const db = new BetterSqlite3(world.relay.databasePath, { readonly: true });
    try {
      const lanes = db.prepare('select low_priority from outbox').all() as {
        low_priority: number;
      }[];
      expect(lanes).toEqual([{ low_priority: 1 }]);
    } finally {
      db.close();
    }
    await quiet(300);
    expect(world.emulator.runs.count()).toBe(0);
    expect(countRows(world.relay.databasePath).inbox).toBe(0);
  });

  it('lets a listed team in by its key', async () => {
    const world = await startWorld({ env: { LINEAR_ALLOWED_TEAMS: 'DESIGN,ENG' } });
    await world.answeredSession('welcome');
    expect(world.emulator.runs.count()).toBe(1);
  });
});
