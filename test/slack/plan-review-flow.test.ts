/**
 * Plan first, end to end on Slack (the real Bolt receiver, the runs over SQLite, the real
 * agent client against the emulator playing plan mode, the fake Slack Web API): the plan is
 * shown in the thread with its answers; Request changes (a form) brings a revised plan;
 * Approve and implement carries it out; a stale press on the first plan's button, a repeated
 * press and a press by someone not allowed each do nothing and say so privately.
 */
import { describe, expect, it } from 'vitest';
import { REVIEW_ACTION_IDS, CHANGES_CALLBACK_ID } from '../../src/slack/api/action-ids.js';
import { appMentionEvent, blockActionsBody, eventCallback } from '../helpers/slack.js';
import { viewSubmissionBody } from '../helpers/slack-surfaces.js';
import { waitUntil } from '../helpers/wait-until.js';
import type { FakeMessage } from '../../src/fakes/slack-web-api.js';
import type { Flow } from './flow-harness.js';
import { startFlow } from './flow-harness.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const start = worldPerTest(startFlow);

type Block = { type?: string; elements?: { action_id?: string; value?: string }[] };

/** The value of a button of a message, by action id. */
function buttonValue(m: FakeMessage | undefined, actionId: string): string | undefined {
  for (const block of (m?.blocks ?? []) as Block[]) {
    const found = block.elements?.find((e) => e.action_id === actionId);
    if (found?.value !== undefined) return found.value;
  }
  return undefined;
}

const isPlan = (m: FakeMessage) => buttonValue(m, REVIEW_ACTION_IDS.approve) !== undefined;
const blocksText = (m: FakeMessage | undefined) => JSON.stringify(m?.blocks ?? []);

/** The private answers Slack was asked to show `user`, as text. */
function whispersTo(f: Flow, user: string): string[] {
  return f.api
    .okCallsTo('chat.postEphemeral')
    .filter((c) => c.params.user === user)
    .map((c) => `${String(c.params.text)} ${JSON.stringify(c.params.blocks ?? [])}`);
}

/** A press on a button of `message` in `thread`, carrying `value`, by `user` (default: the requester). */
function press(
  f: Flow,
  thread: string,
  message: FakeMessage,
  value: string,
  actionId: string,
  user?: string,
): Promise<Response> {
  return f.post(
    blockActionsBody({
      actionId,
      value,
      messageTs: message.ts,
      threadTs: thread,
      ...(user === undefined ? {} : { user }),
    }),
  );
}

describe('Slack: plan first', () => {
  it('plan -> shown -> Request changes -> revised plan -> Approve -> implementation -> outcome', async () => {
    const f = await start();
    const thread = await f.mention(
      '<@UBOT0001> mode=plan Fix the flaky login test and the docs about it',
    );

    // The plan, in the thread: its first lines, the rest a click away, bound answers.
    const first = await waitUntil(() => f.botMessages().find(isPlan), { timeoutMs: 10_000 });
    expect(first.thread_ts).toBe(thread);
    expect(first.text).toContain('<@UALICE01>');
    expect(blocksText(first)).toContain('The plan is ready for review');
    expect(blocksText(first)).toContain('Plan: Fix the flaky login test');
    expect(blocksText(first)).toContain(REVIEW_ACTION_IDS.show);
    expect(blocksText(first)).not.toContain('Callers that rely on the old behaviour');
    const [run] = f.emulator.runs.all();
    expect(run?.state).toBe('BLOCKED');
    const firstValue = buttonValue(first, REVIEW_ACTION_IDS.approve)!;
    expect(firstValue).toBe(`${run!.run_id}:1`);

    // The whole plan, a click away, only to the one who asked.
    await press(f, thread, first, firstValue, REVIEW_ACTION_IDS.show, 'UBOB0001');
    await waitUntil(() =>
      whispersTo(f, 'UBOB0001').find((w) => w.includes('Callers that rely on the old behaviour')),
    );

    // Someone who is neither the requester nor an admin may not answer: told privately.
    await press(f, thread, first, firstValue, REVIEW_ACTION_IDS.approve, 'UBOB0001');
    await waitUntil(() => whispersTo(f, 'UBOB0001').find((w) => w.includes('Only the person')));
    expect(f.emulator.followups).toHaveLength(0);

    // Request changes: the button opens a form; its words go to the agent in plan mode.
    await press(f, thread, first, firstValue, REVIEW_ACTION_IDS.changes);
    const opened = await waitUntil(() => f.api.okCallsTo('views.open')[0]);
    const view = opened.params.view as { callback_id: string; private_metadata: string };
    expect(view.callback_id).toBe(CHANGES_CALLBACK_ID);
    await f.post(
      viewSubmissionBody({
        team: 'T0000001',
        user: 'UALICE01',
        callbackId: CHANGES_CALLBACK_ID,
        values: { changes: 'Keep the old login endpoint working' },
        privateMetadata: view.private_metadata,
      }),
    );
    await waitUntil(() => f.emulator.followups[0]);
    expect(f.emulator.followups[0]).toMatchObject({
      message: 'Keep the old login endpoint working',
      mode: 'plan',
    });

    // The revised plan: a new message with version 2, the changes in it.
    const revised = await waitUntil(
      () => f.botMessages().find((m) => isPlan(m) && m.ts !== first.ts),
      { timeoutMs: 10_000 },
    );
    expect(blocksText(revised)).toContain('The revised plan is ready for review');
    const revisedValue = buttonValue(revised, REVIEW_ACTION_IDS.approve)!;
    expect(revisedValue).toBe(`${run!.run_id}:2`);

    // A press on the first plan's button is stale: said privately, nothing sent.
    await press(f, thread, first, firstValue, REVIEW_ACTION_IDS.approve);
    await waitUntil(() => whispersTo(f, 'UALICE01').find((w) => w.includes('earlier plan')));
    expect(f.emulator.followups).toHaveLength(1);

    // Approve and implement: the agent is told to carry it out (normal mode), the thread hears.
    await press(f, thread, revised, revisedValue, REVIEW_ACTION_IDS.approve);
    await waitUntil(() => f.emulator.followups[1]);
    expect(f.emulator.followups[1]?.mode).toBe('normal');
    await waitUntil(() =>
      f
        .botMessages()
        .find((m) => m.text.includes('approved the plan; the agent is carrying it out')),
    );

    // A repeated press does nothing and says so.
    await press(f, thread, revised, revisedValue, REVIEW_ACTION_IDS.approve);
    await waitUntil(() => whispersTo(f, 'UALICE01').find((w) => w.includes('already answered')));
    expect(f.emulator.followups).toHaveLength(2);

    // The implementation ends as usual: a pull request, an outcome to the requester.
    const outcome = await waitUntil(
      () =>
        f
          .botMessages()
          .find(
            (m) =>
              m.thread_ts === thread &&
              m.text.includes('Succeeded') &&
              m.text.startsWith('<@UALICE01>'),
          ),
      { timeoutMs: 10_000 },
    );
    expect(outcome.text).toContain('pull/');
    expect(f.emulator.runs.get(run!.run_id)?.state).toBe('SUCCEEDED');
  });

  it('a plain reply to a plan asks for changes; `config mode=plan` plans first and `now` skips it', async () => {
    const f = await start();
    f.api.people.set('UALICE01', { is_admin: true });
    await f.post(
      eventCallback(
        appMentionEvent({
          text: '<@UBOT0001> config mode=plan',
          ts: f.api.seedMessage({ channel: 'CGENERAL1', user: 'UALICE01', text: 'config' }),
        }),
      ),
    );
    await waitUntil(async () => (await f.store.settings.list('slack:T0000001:CGENERAL1')).length);

    const thread = await f.mention('<@UBOT0001> Tidy the release notes');
    const plan = await waitUntil(() => f.botMessages().find(isPlan), { timeoutMs: 10_000 });
    expect(plan.thread_ts).toBe(thread);
    const card = f.botMessages().find((m) => m.thread_ts === thread && m.ts !== plan.ts);
    expect(blocksText(card)).toContain('mode');

    // A plain reply in the thread: changes, in plan mode (never carried out by a reply).
    await f.reply(thread, 'Group them by component');
    await waitUntil(() => f.emulator.followups[0]);
    expect(f.emulator.followups[0]).toMatchObject({
      message: 'Group them by component',
      mode: 'plan',
    });

    // `now` starts the work at once in the same place, whatever the default.
    await f.mention('<@UBOT0001> now Bump the version');
    await waitUntil(
      () =>
        f.emulator.runs.all().find((r) => r.prompt.includes('Bump the version'))?.state ===
        'SUCCEEDED',
      { timeoutMs: 10_000 },
    );
  });

  it('a run waiting to have an action approved gets Approve / Reject, bound the same way', async () => {
    const f = await start();
    const thread = await f.mention('<@UBOT0001> rebase the release branch [approval]');
    const asked = await waitUntil(
      () => f.botMessages().find((m) => blocksText(m).includes(REVIEW_ACTION_IDS.reject)),
      { timeoutMs: 10_000 },
    );
    expect(asked.thread_ts).toBe(thread);
    expect(blocksText(asked)).toContain('Waiting for your approval');
    expect(blocksText(asked)).toContain('git push --force-with-lease');
    const value = buttonValue(asked, REVIEW_ACTION_IDS.approve)!;
    const [run] = f.emulator.runs.all();
    expect(value).toBe(`${run!.run_id}:1`);

    await press(f, thread, asked, value, REVIEW_ACTION_IDS.approve);
    await waitUntil(() => f.emulator.followups[0]);
    expect(f.emulator.followups[0]?.message).toContain('Approved');
    await waitUntil(() => f.botMessages().find((m) => m.text.includes('approved it')));
    // Pressed again: already answered, nothing sent.
    await press(f, thread, asked, value, REVIEW_ACTION_IDS.reject);
    await waitUntil(() => whispersTo(f, 'UALICE01').find((w) => w.includes('already answered')));
    expect(f.emulator.followups).toHaveLength(1);
    await waitUntil(() => f.emulator.runs.get(run!.run_id)?.state === 'SUCCEEDED', {
      timeoutMs: 10_000,
    });
  });
});
