/**
 * Whole conversations in Teams through the real relay, the emulator and the fake Bot
 * Connector: a mention in a channel starts a run whose one status card is edited through its
 * states; the outcome mentions the requester with the agent's words, the PR and the cost; a
 * BLOCKED run asks in the thread and a mention there follows up; the card's Stop interrupts
 * and its Cancel ends, for the requester only (anyone else is refused privately); a 1:1
 * message and the message extension's action start runs too.
 */
import { describe, expect, it } from 'vitest';
import {
  GENERAL_CHANNEL,
  TEAMS_PEOPLE,
  type ConnectorActivity,
  type TeamsPerson,
} from '../../src/fakes/teams-connector.js';
import { shownText, startTeamsWorld, type TeamsWorld } from '../helpers/teams.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startTeamsWorld);

const threadOf = (activity: Record<string, unknown>) =>
  `${GENERAL_CHANNEL};messageid=${String(activity.id)}`;
const isCard = (a: ConnectorActivity) => Array.isArray(a.activity.attachments);
const cardOf = (w: TeamsWorld, thread: string) => w.teams.inConversation(thread).find(isCard)!;
/** The card of a posted activity. */
const contentOf = (a: ConnectorActivity) =>
  (a.activity.attachments as { content: Record<string, unknown> }[])[0]!.content;
/** What the card asks Teams to refresh it for: the action's data and the people. */
const refreshOf = (card: Record<string, unknown>) =>
  card.refresh as
    { action: { verb: string; data: Record<string, unknown> }; userIds: string[] } | undefined;
/** The Action.Execute buttons in a card's body (not its refresh), by title. */
function buttons(card: unknown): Map<string, { verb: string; data: Record<string, unknown> }> {
  const found = new Map<string, { verb: string; data: Record<string, unknown> }>();
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (n === null || typeof n !== 'object') return;
    const o = n as Record<string, unknown>;
    if (o.type === 'Action.Execute')
      found.set(String(o.title), { verb: String(o.verb), data: o.data as Record<string, unknown> });
    Object.values(o).forEach(walk);
  };
  walk((card as { body?: unknown }).body);
  return found;
}

/** Refresh a card as a person's Teams client does; the card it answers with. */
async function refreshed(w: TeamsWorld, person: TeamsPerson, card: ConnectorActivity) {
  const refresh = refreshOf(contentOf(card))!;
  const sent = await w.send(
    w.teams.build.cardAction(person, card, refresh.action.verb, refresh.action.data),
  );
  expect(sent.answer).toMatchObject({
    statusCode: 200,
    type: 'application/vnd.microsoft.card.adaptive',
  });
  return sent.answer.value as Record<string, unknown>;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 500) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a run in a Teams channel thread', () => {
  it('a mention starts it: one card through every state, then the outcome for the requester', async () => {
    const world = await startWorld();
    const mention = world.teams.build.channelMention(TEAMS_PEOPLE.alice, 'fix the login loop');
    expect((await world.send(mention)).answer).toMatchObject({ result: 'accepted' });
    const thread = threadOf(mention);
    const outcome = await world.waitFor(thread, (t) => /Run succeeded/.test(t));
    const posted = world.teams.inConversation(thread);
    const card = posted.find(isCard)!;
    expect(posted).toEqual([card, outcome]);
    const seen = [...card.edits, card.activity].map((a) => shownText(a));
    expect(seen[0]).toMatch(/is starting/);
    expect(
      seen.some((t) => /is waiting for a machine|is getting ready|is working on/.test(t)),
    ).toBe(true);
    expect(seen.at(-1)).toMatch(/finished: \*\*fix the login loop\*\*/);
    // While it lives the card asks Teams to refresh it for the requester (whose refresh
    // brings Stop and Cancel); the card everyone sees has no buttons, the ended one no refresh.
    const live = card.edits
      .map((e) => (e.attachments as { content: Record<string, unknown> }[])[0]!.content)
      .filter((c) => refreshOf(c) !== undefined);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((c) => refreshOf(c)!.userIds.join() === TEAMS_PEOPLE.alice.id)).toBe(true);
    expect([...card.edits, card.activity].some((a) => /\[Stop\]/.test(shownText(a)))).toBe(false);
    expect(refreshOf(contentOf(card))).toBeUndefined();
    // The outcome mentions the requester, with the agent's words, the PR and the cost.
    expect(outcome.activity.entities).toEqual([
      {
        type: 'mention',
        text: '<at>Alice Park</at>',
        mentioned: { id: TEAMS_PEOPLE.alice.id, name: 'Alice Park' },
      },
    ]);
    const said = shownText(outcome);
    expect(said).toMatch(/^<at>Alice Park<\/at> /);
    expect(said).toMatch(/\[PR: [^\]]+\]\(https:\/\//);
    expect(said).toMatch(/Used about \$/);
    expect(world.emulator.runs.all()[0]!.prompt).toContain('fix the login loop');
  });

  it('a BLOCKED run asks in the thread, and a mention there follows up on it', async () => {
    const world = await startWorld();
    const mention = world.teams.build.channelMention(
      TEAMS_PEOPLE.alice,
      'decide the schema [block]',
    );
    await world.send(mention);
    const thread = threadOf(mention);
    const question = await world.waitFor(thread, (t) => /waiting for your answer/.test(t));
    expect(shownText(question)).toMatch(/answer with `@agent-relay <answer>`/);
    const answer = world.teams.build.channelMention(TEAMS_PEOPLE.alice, 'use JSON', {
      root: String(mention.id),
    });
    expect((await world.send(answer)).answer).toMatchObject({ result: 'accepted' });
    await world.waitFor(thread, (t) => /Run succeeded/.test(t));
    expect(world.emulator.followups[0]!.message).toContain('use JSON');
    expect(world.emulator.runs.count()).toBe(1);
  });

  it("the card's Stop interrupts and its Cancel ends, for the requester; anyone else is refused privately", async () => {
    const world = await startWorld({ timings: { slowRunMs: 30_000 } });
    const { teams, emulator } = world;
    const mention = teams.build.channelMention(TEAMS_PEOPLE.bob, 'long job [slow]');
    await world.send(mention);
    const thread = threadOf(mention);
    await world.waitFor(thread, (t, a) => isCard(a) && /is working on/.test(t));
    const card = cardOf(world, thread);
    // The requester's refresh brings Stop and Cancel; anyone else's, the card without them.
    const theirs = await refreshed(world, TEAMS_PEOPLE.bob, card);
    expect([...buttons(theirs).keys()]).toEqual(['Stop', 'Cancel']);
    expect(buttons(await refreshed(world, TEAMS_PEOPLE.alice, card)).size).toBe(0);
    const stop = buttons(theirs).get('Stop')!;
    const cancel = buttons(theirs).get('Cancel')!;
    // Someone else presses (a card kept from before): told privately, nothing changes.
    const other = await world.send(
      teams.build.cardAction(TEAMS_PEOPLE.alice, card, stop.verb, stop.data),
    );
    expect(other.answer).toEqual({
      statusCode: 200,
      type: 'application/vnd.microsoft.activity.message',
      value: expect.stringMatching(/^Only the person who started/),
    });
    // The same button in another conversation (a copied card) acts on nothing.
    const copied = { ...card, conversationId: 'a:1chat-elsewhere' };
    const elsewhere = await world.send(
      teams.build.cardAction(TEAMS_PEOPLE.bob, copied, stop.verb, stop.data),
    );
    expect(elsewhere.answer).toMatchObject({ value: 'I have no such run here.' });
    expect(emulator.requests.get('POST /agent/runs/:id/interrupt') ?? 0).toBe(0);
    // The requester presses Stop: interrupted.
    const stopped = await world.send(
      teams.build.cardAction(TEAMS_PEOPLE.bob, card, stop.verb, stop.data),
    );
    expect(stopped.answer).toMatchObject({
      statusCode: 200,
      value: expect.stringMatching(/Stopping/),
    });
    await until(() => emulator.runs.all()[0]!.state === 'BLOCKED', 'the run to be interrupted');
    expect(emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
    // And Cancel: the run ends, the card says so.
    await world.send(teams.build.cardAction(TEAMS_PEOPLE.bob, card, cancel.verb, cancel.data));
    await world.waitFor(thread, (t) => /Run was cancelled/.test(t));
    expect(emulator.runs.all()[0]!.state).toBe('CANCELLED');
    expect(shownText(cardOf(world, thread))).toMatch(/stopped \(cancelled\)/);
  });

  it('a refresh answered by another replica on the same database brings the same card with the buttons', async () => {
    const world = await startWorld({ timings: { slowRunMs: 30_000 } });
    const { teams } = world;
    const mention = teams.build.channelMention(TEAMS_PEOPLE.bob, 'long job [slow]');
    await world.send(mention);
    const thread = threadOf(mention);
    await world.waitFor(thread, (t, a) => isCard(a) && /is working on/.test(t));
    // A second relay that never drew this card (a fresh process, nothing in its memory).
    const replica = await world.startReplica();
    const card = cardOf(world, thread);
    const refresh = refreshOf(contentOf(card))!;
    const refreshAt = async (person: TeamsPerson) => {
      const res = await teams.send(
        replica,
        teams.build.cardAction(person, card, refresh.action.verb, refresh.action.data),
      );
      expect(res.status).toBe(200);
      const answer = (await res.json()) as Record<string, unknown>;
      expect(answer).toMatchObject({ type: 'application/vnd.microsoft.card.adaptive' });
      return answer.value as Record<string, unknown>;
    };
    const theirs = await refreshAt(TEAMS_PEOPLE.bob);
    expect([...buttons(theirs).keys()]).toEqual(['Stop', 'Cancel']);
    expect(buttons(await refreshAt(TEAMS_PEOPLE.alice)).size).toBe(0);
    // The same card: its headline (state and title), who asked, and its own refresh.
    const drawn = contentOf(cardOf(world, thread));
    const texts = (c: Record<string, unknown>) =>
      (c.body as { text?: string }[]).slice(0, 2).map((b) => b.text);
    expect(texts(theirs)).toEqual(texts(drawn));
    expect(texts(theirs)[0]).toMatch(/is working on/);
    expect(theirs.refresh).toEqual(drawn.refresh);
    // Its Stop, pressed on that replica, reaches the run.
    const stop = buttons(theirs).get('Stop')!;
    const pressed = await teams.send(
      replica,
      teams.build.cardAction(TEAMS_PEOPLE.bob, card, stop.verb, stop.data),
    );
    expect(await pressed.json()).toMatchObject({ value: expect.stringMatching(/Stopping/) });
    await until(() => world.emulator.runs.all()[0]!.state === 'BLOCKED', 'the interrupt');
    expect(world.emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
  });

  it('an admin may cancel anyone’s run from the card', async () => {
    const world = await startWorld({
      timings: { slowRunMs: 30_000 },
      env: { TEAMS_ADMIN_USERS: TEAMS_PEOPLE.carol.aadObjectId },
    });
    const { teams, emulator } = world;
    const mention = teams.build.channelMention(TEAMS_PEOPLE.bob, 'long job [slow]');
    await world.send(mention);
    const thread = threadOf(mention);
    await world.waitFor(thread, (t, a) => isCard(a) && /is working on/.test(t));
    // An admin's refresh (by hand in a big channel) brings the buttons too.
    const forCarol = await refreshed(world, TEAMS_PEOPLE.carol, cardOf(world, thread));
    const cancel = buttons(forCarol).get('Cancel')!;
    await world.send(
      teams.build.cardAction(TEAMS_PEOPLE.carol, cardOf(world, thread), cancel.verb, cancel.data),
    );
    await world.waitFor(thread, (t) => /Run was cancelled/.test(t));
    expect(emulator.runs.all()[0]!.state).toBe('CANCELLED');
  });
});

describe("a place's defaults", () => {
  it('only an admin changes them; anyone allowed sees them', async () => {
    const world = await startWorld({ env: { TEAMS_ADMIN_USERS: TEAMS_PEOPLE.carol.aadObjectId } });
    const { teams } = world;
    const bob = teams.build.channelMention(TEAMS_PEOPLE.bob, 'config steer=requester');
    await world.send(bob);
    await world.waitFor(threadOf(bob), (t) => /Only an admin of agent-relay may change/.test(t));
    const carol = teams.build.channelMention(TEAMS_PEOPLE.carol, 'config steer=requester');
    await world.send(carol);
    await world.waitFor(threadOf(carol), (t) => /`steer` = `requester` ✏️/.test(t));
  });
});

describe('other ways in', () => {
  it('any message in a 1:1 chat starts a run there', async () => {
    const world = await startWorld();
    const dm = world.teams.build.personal(TEAMS_PEOPLE.alice, 'add a changelog');
    expect((await world.send(dm)).answer).toMatchObject({ result: 'accepted' });
    const chat = (dm.conversation as { id: string }).id;
    await world.waitFor(chat, (t) => /Run succeeded/.test(t));
    expect(world.emulator.runs.all()[0]!.prompt).toContain('add a changelog');
  });

  it('"Send to agent-relay" on a message starts a run on it in its thread', async () => {
    const world = await startWorld();
    const action = world.teams.build.extensionAction(
      TEAMS_PEOPLE.alice,
      { id: '1712000000999', text: 'The export times out after 30 s', author: 'Dana' },
      'please look into this',
    );
    const sent = await world.send(action);
    expect(sent).toEqual({ status: 200, answer: {} });
    await world.waitFor(`${GENERAL_CHANNEL};messageid=1712000000999`, (t) =>
      /Run succeeded/.test(t),
    );
    const prompt = world.emulator.runs.all()[0]!.prompt;
    expect(prompt).toContain('please look into this');
    expect(prompt).toContain('> The export times out after 30 s');
  });
});
