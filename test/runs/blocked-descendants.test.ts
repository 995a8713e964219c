/**
 * A tracked run orchestrates: one of its child runs stops in BLOCKED, waiting for approval,
 * while the parent keeps running. The parent's thread is told once per BLOCKED episode of the
 * child, with a link to the child's session, from the listing the tracker makes anyway
 * (no request per run). Its Approve / Reject buttons answer the child itself, by its id, bound
 * to that episode.
 */
import { describe, expect, it } from 'vitest';
import { REVIEW_ACTION_IDS } from '../../src/slack/api/action-ids.js';
import type { FakeMessage } from '../../src/fakes/slack-web-api.js';
import { appMentionEvent, blockActionsBody, eventCallback } from '../helpers/slack.js';
import { relayPerTest } from '../helpers/relay.js';
import { waitUntil } from '../helpers/wait-until.js';

const start = relayPerTest();
const ROOT = '1700005001.000100';
const WAITING = /sub-run this run started is waiting for approval/;

/** A relay whose run asked for at ROOT ("ship the release") is working: the relay, that run. */
async function releaseRunning() {
  const r = await start();
  const mention = appMentionEvent({ ts: ROOT, text: '<@UBOT0001> ship the release' });
  expect((await r.postSlack(eventCallback(mention))).status).toBe(200);
  const parentId = await waitUntil(() => r.emulator.runs.all()[0]?.run_id, { timeoutMs: 10_000 });
  r.emulator.setState(parentId, 'INPROGRESS');
  return { r, parentId };
}

describe('a blocked orchestration child of a running run', () => {
  it('is said in the parent thread once per BLOCKED episode, with its session link', async () => {
    const { r, parentId } = await releaseRunning();
    await waitUntil(() => r.slack.messages.some((m) => /Running/.test(m.text)), {
      timeoutMs: 10_000,
    });

    const child = r.emulator.createRunDirect(
      { prompt: 'deploy to production', parent_run_id: parentId },
      { state: 'BLOCKED', manual: true },
    );
    const notices = () =>
      r.slack.messages.filter((m) => m.thread_ts === ROOT && WAITING.test(m.text));
    await waitUntil(() => notices().length === 1, { timeoutMs: 10_000 });
    const first = notices()[0]!;
    expect(first.text).toContain('<@UALICE01>');
    expect(first.text).toContain('deploy to production');
    expect(JSON.stringify(first.blocks)).toContain(child.session_link);

    // Still blocked a few cycles later: not said again.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(notices()).toHaveLength(1);
    expect(r.emulator.runs.get(parentId)?.state).toBe('INPROGRESS');

    // Approved, then blocked again: a new episode, said again.
    r.emulator.setState(child.run_id, 'INPROGRESS');
    await new Promise((resolve) => setTimeout(resolve, 500));
    r.emulator.setState(child.run_id, 'BLOCKED');
    await waitUntil(() => notices().length === 2, { timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(notices()).toHaveLength(2);
  }, 30_000);

  it('Approve / Reject answer the sub-run by its id, bound to its episode (Slack, end to end)', async () => {
    const { r, parentId } = await releaseRunning();
    const child = r.emulator.createRunDirect(
      { prompt: 'deploy to production', parent_run_id: parentId },
      { state: 'BLOCKED', manual: true },
    );
    type Block = { elements?: { action_id?: string; value?: string }[] };
    const valueOf = (m: FakeMessage | undefined, actionId: string) =>
      ((m?.blocks ?? []) as Block[])
        .flatMap((b) => b.elements ?? [])
        .find((e) => e.action_id === actionId)?.value;
    const asked = () =>
      r.slack.messages.filter(
        (m) => m.thread_ts === ROOT && valueOf(m, REVIEW_ACTION_IDS.reject) !== undefined,
      );
    const first = await waitUntil(() => asked()[0], { timeoutMs: 10_000 });
    expect(first.text).toMatch(WAITING);
    // Bound to the sub-run (not the thread's run) and to its first BLOCKED episode.
    expect(valueOf(first, REVIEW_ACTION_IDS.approve)).toBe(`${child.run_id}:1`);
    const whispers = (user: string) =>
      r.slack
        .okCallsTo('chat.postEphemeral')
        .filter((c) => c.params.user === user)
        .map((c) => `${String(c.params.text)} ${JSON.stringify(c.params.blocks ?? [])}`);
    const press = (actionId: string, value: string, user = 'UALICE01') =>
      r.postSlack(blockActionsBody({ actionId, value, messageTs: first.ts, threadTs: ROOT, user }));

    // Someone who neither started the run nor is an admin: refused, privately.
    expect((await press(REVIEW_ACTION_IDS.approve, `${child.run_id}:1`, 'UBOB0001')).status).toBe(
      200,
    );
    await waitUntil(() => whispers('UBOB0001').find((w) => w.includes('Only the person')), {
      timeoutMs: 10_000,
    });
    expect(r.emulator.followups).toHaveLength(0);

    // The requester approves: the follow-up goes to the sub-run, the thread is told.
    expect((await press(REVIEW_ACTION_IDS.approve, `${child.run_id}:1`)).status).toBe(200);
    const sent = await waitUntil(() => r.emulator.followups[0], { timeoutMs: 10_000 });
    expect(sent.runId).toBe(child.run_id);
    expect(sent.message).toContain('Approved');
    await waitUntil(
      () => r.slack.messages.find((m) => m.text.includes('approved the sub-run; it goes ahead')),
      { timeoutMs: 10_000 },
    );

    // Pressed again (Reject): already answered, nothing sent.
    await press(REVIEW_ACTION_IDS.reject, `${child.run_id}:1`);
    await waitUntil(() => whispers('UALICE01').find((w) => w.includes('already answered')), {
      timeoutMs: 10_000,
    });
    expect(r.emulator.followups).toHaveLength(1);

    // Its next BLOCKED episode is a new question: the old button is stale, the new one works.
    r.emulator.setState(child.run_id, 'INPROGRESS');
    await new Promise((resolve) => setTimeout(resolve, 500));
    r.emulator.setState(child.run_id, 'BLOCKED');
    const second = await waitUntil(() => asked()[1], { timeoutMs: 10_000 });
    expect(valueOf(second, REVIEW_ACTION_IDS.reject)).toBe(`${child.run_id}:2`);
    await press(REVIEW_ACTION_IDS.approve, `${child.run_id}:1`);
    await waitUntil(() => whispers('UALICE01').find((w) => w.includes('earlier question')), {
      timeoutMs: 10_000,
    });
    expect(r.emulator.followups).toHaveLength(1);
    await press(REVIEW_ACTION_IDS.reject, `${child.run_id}:2`);
    await waitUntil(() => r.emulator.followups[1], { timeoutMs: 10_000 });
    expect(r.emulator.followups[1]).toMatchObject({ runId: child.run_id });
    expect(r.emulator.followups[1]?.message).not.toContain('Approved');
  }, 40_000);

  it('a blocked run that descends from no tracked run is not said anywhere', async () => {
    const { r } = await releaseRunning();
    const stranger = r.emulator.createRunDirect({ prompt: 'someone else’s orchestration' });
    r.emulator.createRunDirect(
      { prompt: 'their child', parent_run_id: stranger.run_id },
      { state: 'BLOCKED', manual: true },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(r.slack.messages.some((m) => WAITING.test(m.text))).toBe(false);
  }, 30_000);
});
