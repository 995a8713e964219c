/**
 * POST /teams/messages against the real service and the fake Bot Connector: every token the
 * Bot Framework would not have signed is refused with 401 and nothing is stored (no token, a
 * key it does not publish, another issuer, another audience, expired, a `serviceurl` claim
 * that is not the body's, a tenant not allowed); a redelivered activity is one trigger.
 */
import { describe, expect, it } from 'vitest';
import {
  FAKE_TEAMS_TENANT,
  GENERAL_CHANNEL,
  OTHER_TENANT,
  TEAMS_PEOPLE,
} from '../../src/fakes/teams-connector.js';
import { countRows } from '../helpers/relay.js';
import { startTeamsWorld, type TeamsWorld } from '../helpers/teams.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startTeamsWorld);

const inbox = (w: TeamsWorld) => countRows(w.relay.databasePath).inbox;

describe('POST /teams/messages', () => {
  it('refuses every token the Bot Connector would not have signed, with 401, storing nothing', async () => {
    const world = await startWorld();
    const activity = world.teams.build.channelMention(TEAMS_PEOPLE.alice, 'fix the login page');
    const cases = [
      [{ unsigned: true }, 'missing_token'],
      [{ foreignKey: true }, 'invalid_token'],
      [{ issuer: 'https://sts.windows.net/evil/' }, 'invalid_token'],
      [{ audience: '99999999-9999-4999-8999-999999999999' }, 'invalid_token'],
      [{ expiredSecondsAgo: 600 }, 'invalid_token'],
      [{ serviceUrlClaim: 'https://smba.evil.example/teams/' }, 'service_url_mismatch'],
    ] as const;
    for (const [options, error] of cases) {
      const sent = await world.send(activity, options);
      expect({ options, status: sent.status, answer: sent.answer }).toEqual({
        options,
        status: 401,
        answer: expect.objectContaining({ ok: false, error }),
      });
    }
    // Within the 5 minutes of clock skew the SDK allows, a token still holds.
    expect((await world.send(activity, { expiredSecondsAgo: 60 })).status).toBe(200);
    // A serviceUrl in the body that the token does not name.
    const moved = { ...activity, serviceUrl: 'https://smba.evil.example/teams/' };
    const claimed = await world.send(moved, { serviceUrlClaim: world.teams.serviceUrl });
    expect(claimed.status).toBe(401);
    // A tenant not allowed, however well signed.
    const foreign = world.teams.build.channelMention(TEAMS_PEOPLE.alice, 'hello', {
      tenant: OTHER_TENANT,
    });
    expect(await world.send(foreign)).toMatchObject({
      status: 401,
      answer: { error: 'tenant_not_allowed' },
    });
    // Only the one well-signed delivery was taken.
    expect(inbox(world)).toBe(1);
  });

  it('takes a signed mention once, however often it is delivered', async () => {
    const world = await startWorld();
    const activity = world.teams.build.channelMention(TEAMS_PEOPLE.alice, 'tidy the README');
    const first = await world.send(activity);
    expect(first).toMatchObject({ status: 200, answer: { ok: true, result: 'accepted' } });
    const again = await world.send(activity);
    expect(again).toMatchObject({ status: 200, answer: { ok: true, result: 'duplicate' } });
    const thread = `${GENERAL_CHANNEL};messageid=${String(activity.id)}`;
    await world.waitFor(thread, (t) => /Run succeeded/.test(t));
    expect(world.emulator.runs.count()).toBe(1);
    expect(inbox(world)).toBe(1);
  });

  it('answers 400 to a signed body that is not an activity, and ignores guests', async () => {
    const world = await startWorld();
    const bad = await world.send({ type: 'message', serviceUrl: world.teams.serviceUrl });
    expect(bad.status).toBe(400);
    const guest = await world.send(
      world.teams.build.channelMention(TEAMS_PEOPLE.guest, 'delete everything'),
    );
    expect(guest).toMatchObject({ status: 200, answer: { result: 'ignored', reason: 'guest' } });
    expect(inbox(world)).toBe(0);
  });

  it('with allowlists, only the people and conversations on them; admins are marked', async () => {
    const world = await startWorld({
      env: {
        TEAMS_ALLOWED_USERS: TEAMS_PEOPLE.alice.aadObjectId,
        TEAMS_ALLOWED_CHANNELS: GENERAL_CHANNEL,
      },
    });
    const bob = await world.send(world.teams.build.channelMention(TEAMS_PEOPLE.bob, 'hello'));
    expect(bob.answer).toMatchObject({ result: 'ignored', reason: 'person_not_allowed' });
    const elsewhere = await world.send(world.teams.build.groupChat(TEAMS_PEOPLE.alice, 'hello'));
    expect(elsewhere.answer).toMatchObject({ result: 'ignored', reason: 'channel_not_allowed' });
    expect(inbox(world)).toBe(0);
    const alice = await world.send(world.teams.build.channelMention(TEAMS_PEOPLE.alice, 'hi'));
    expect(alice.answer).toMatchObject({ result: 'accepted' });
  });

  it('a group chat needs the mention; words without it are not for the bot', async () => {
    const world = await startWorld();
    const plain = world.teams.build.groupChat(TEAMS_PEOPLE.alice, 'lunch?');
    delete (plain as { entities?: unknown }).entities;
    plain.text = 'lunch?';
    expect((await world.send(plain)).answer).toMatchObject({ reason: 'not_addressed' });
    // A conversation whose type Teams did not say is not taken for a 1:1 chat.
    const unnamed = { ...plain, conversation: { id: 'a:1unnamed', tenantId: FAKE_TEAMS_TENANT } };
    expect((await world.send(unnamed)).answer).toMatchObject({ reason: 'not_addressed' });
    const asked = world.teams.build.groupChat(TEAMS_PEOPLE.alice, 'status');
    expect((await world.send(asked)).answer).toMatchObject({ result: 'accepted' });
    const chat = (asked.conversation as { id: string }).id;
    await world.waitFor(chat, (t) => /no run|There is no run|No run/i.test(t));
    expect(world.emulator.runs.count()).toBe(0);
  });
});
