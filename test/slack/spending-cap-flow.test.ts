/**
 * A spending cap per run, end to end on Slack: `cap=1` shows on the card; when the run's
 * reported cost reaches $1 the relay interrupts it within a tracker cycle and asks the
 * requester, privately, to Continue for another $1 or Stop here; Continue lets it go on, and it
 * is stopped again at $2.
 */
import { describe, expect, it } from 'vitest';
import { REVIEW_ACTION_IDS } from '../../src/slack/api/action-ids.js';
import { blockActionsBody } from '../helpers/slack.js';
import { waitUntil } from '../helpers/wait-until.js';
import type { Flow } from './flow-harness.js';
import { startFlow } from './flow-harness.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const start = worldPerTest(startFlow);

/** The private messages to a person with a Continue button, newest last. */
function capQuestions(f: Flow, user: string) {
  return f.api
    .okCallsTo('chat.postEphemeral')
    .filter(
      (c) =>
        c.params.user === user &&
        JSON.stringify(c.params.blocks ?? []).includes(REVIEW_ACTION_IDS.continue),
    );
}

describe('Slack: a spending cap per run', () => {
  it('cap=1: interrupted at $1, asked privately, Continue goes on to $2', async () => {
    const f = await start({ timings: { runMs: 4_000 } });
    const words = '<@UBOT0001> cap=1 Migrate the settings page';
    const ts = await f.mention(words);

    const run = await waitUntil(() => f.emulator.runs.all().find((r) => r.state === 'INPROGRESS'));
    // The cap is on the card while the run works.
    const card = f.botMessages().find((m) => m.thread_ts === ts);
    expect(JSON.stringify(card?.blocks)).toContain('cap');

    f.emulator.spend(run.run_id, 1);
    await waitUntil(() => f.emulator.runs.get(run.run_id)?.state === 'BLOCKED');
    expect(f.emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
    const [asked] = await waitUntil(() => {
      const q = capQuestions(f, 'UALICE01');
      return q.length > 0 ? q : undefined;
    });
    const text = JSON.stringify(asked!.params.blocks);
    expect(text).toContain('Continue for another $1');
    expect(text).toContain('Stop here');
    expect(text).toContain(`${run.run_id}:1`);
    // Nobody else is asked, and without an answer the run stays stopped.
    expect(f.emulator.followups).toHaveLength(0);

    await f.post(
      blockActionsBody({
        actionId: REVIEW_ACTION_IDS.continue,
        value: `${run.run_id}:1`,
        messageTs: ts,
        threadTs: ts,
        ephemeral: true,
      }),
    );
    await waitUntil(() => f.emulator.followups[0]);
    await waitUntil(() => f.emulator.runs.get(run.run_id)?.state === 'INPROGRESS');
    await waitUntil(() => f.botMessages().find((m) => m.text.includes('up to $2')));

    // Under $2 it works on; at $2 it is stopped and asked again.
    f.emulator.spend(run.run_id, 0.5);
    // Recorded by the tracker (so seen), and still below the new limit: it works on.
    await waitUntil(async () => ((await f.store.runs.get(run.run_id))?.costUsd ?? 0) > 1.6);
    expect((await f.store.runs.get(run.run_id))?.costUsd).toBeLessThan(2);
    expect(f.emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
    expect(f.emulator.runs.get(run.run_id)?.state).toBe('INPROGRESS');
    f.emulator.spend(run.run_id, 0.5);
    await waitUntil(() => capQuestions(f, 'UALICE01')[1]);
    expect(f.emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(2);
    expect(JSON.stringify(capQuestions(f, 'UALICE01')[1]?.params.blocks)).toContain('$2');
  });
});
