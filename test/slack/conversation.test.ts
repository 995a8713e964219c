/**
 * Said once, in Slack: whole conversations driven end to end (signed requests into Bolt, the
 * engine over SQLite, the emulator, the fake Web API). The status message (the card) holds
 * the detail; every other message of the thread says something the card does not.
 */
import { describe, expect, it } from 'vitest';
import { CANCEL_ACTION_ID } from '../../src/slack/render/render-blocks.js';
import type { FakeMessage } from '../../src/fakes/slack-web-api.js';
import { blockActionsBody, slashCommandBody } from '../helpers/slack.js';
import { blockText, hasActions, repetitions } from '../helpers/repetition.js';
import { waitUntil } from '../helpers/wait-until.js';
import { startFlow, type Flow } from './flow-harness.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const start = worldPerTest(startFlow);

const isCard = (m: FakeMessage) => JSON.stringify(m.blocks ?? []).includes('"type":"header"');

/** The bot's messages of one thread (its root included), as a person reads them now. */
function thread(f: Flow, root: string) {
  return f
    .botMessages()
    .filter((m) => m.ts === root || m.thread_ts === root)
    .map((m, i) => ({
      label: `${isCard(m) ? 'card' : 'reply'} ${i}`,
      text: blockText(m.blocks) || m.text,
      hasButtons: hasActions(m.blocks),
      raw: m,
    }));
}

function outcomes(f: Flow, root: string): FakeMessage[] {
  return thread(f, root)
    .map((m) => m.raw)
    .filter((m) => !isCard(m));
}

/** Reactions are taken off only where the relay put them: no removal finds nothing. */
function expectNoVainRemovals(f: Flow): void {
  const removals = f.api.callsTo('reactions.remove');
  expect(removals.filter((c) => c.status !== 200 || c.error !== undefined)).toEqual([]);
}

function expectSaidOnce(f: Flow, root: string): void {
  const runs = f.emulator.runs.all();
  const found = repetitions(thread(f, root), {
    titles: runs.map((r) => r.title),
    runIds: runs.map((r) => r.run_id),
  });
  expect(found).toEqual([]);
}

const told = (f: Flow, root: string, n: number) =>
  waitUntil(() => (outcomes(f, root).length >= n ? outcomes(f, root) : undefined), {
    timeoutMs: 10_000,
    message: `${n} outcome line(s)`,
  });

describe('Slack conversations say each thing once', () => {
  it('BLOCKED, answered in the thread, then done: the card has the question, the lines point at it', async () => {
    const f = await start();
    const root = await f.mention('<@UBOT0001> migrate the db [block]');
    const [asked] = await told(f, root, 1);
    expect(asked?.text).toContain('<@UALICE01>');
    expect(asked?.text).toContain('Waiting for your input');
    const card = thread(f, root).find((m) => isCard(m.raw));
    expect(card?.text).toContain('which approach should it take');
    expect(asked?.text).not.toContain('which approach should it take');
    // The line carries the agent's own question, as the agent asked it.
    expect(blockText(asked?.blocks)).toContain('Should I keep the old function');

    await f.reply(root, 'use the main branch');
    const [, routed, done] = await told(f, root, 3);
    // The follow-up's acknowledgement says where it went.
    expect(routed?.text).toContain('resumed the run');
    expect(done?.text).toContain('Succeeded');
    expect(blockText(done?.blocks)).toContain('the pull request now also covers');
    // Each line is one line, then at most the agent's words.
    expect(outcomes(f, root).every((m) => (m.blocks ?? []).length <= 2)).toBe(true);
    expectSaidOnce(f, root);
    await waitUntil(() => f.api.message('CGENERAL1', root)?.reactions.length === 0);
    expect(f.api.callsTo('reactions.remove').length).toBeGreaterThan(0);
    expectNoVainRemovals(f);
  });

  it('a failure, then a follow-up that succeeds', async () => {
    const f = await start();
    const root = await f.mention('<@UBOT0001> fix the flaky test [fail]');
    const [failed] = await told(f, root, 1);
    expect(failed?.text).toContain('Failed');
    expect(blockText(failed?.blocks)).not.toContain('tests it wrote keep failing');
    await f.reply(root, 'try once more with the fixture');
    await told(f, root, 3);
    expectSaidOnce(f, root);
    expectNoVainRemovals(f);
  });

  it('a slash-command run cancelled with its button', async () => {
    const f = await start();
    await f.post(slashCommandBody({ text: 'rewrite everything [slow]' }));
    const card = await waitUntil(() => {
      const m = f.botMessages().find(isCard);
      return m?.text.endsWith(': Running') ? m : undefined;
    });
    const runId = f.emulator.runs.all()[0]?.run_id ?? '';
    await f.post(
      blockActionsBody({ actionId: CANCEL_ACTION_ID, value: runId, messageTs: card.ts }),
    );
    const [cancelled] = await told(f, card.ts, 1);
    expect(cancelled?.text).toContain('Cancelled');
    expectSaidOnce(f, card.ts);
  });
});
