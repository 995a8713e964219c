/**
 * A tracked run orchestrates: one of its child runs stops in BLOCKED, waiting for approval,
 * while the parent keeps running. The parent's thread is told once per BLOCKED episode of the
 * child, with a link to the child's session, from the listing the tracker makes anyway
 * (no request per run).
 */
import { describe, expect, it } from 'vitest';
import { appMentionEvent, eventCallback } from '../helpers/slack.js';
import { relayPerTest } from '../helpers/relay.js';
import { waitUntil } from '../helpers/wait-until.js';

const start = relayPerTest();
const ROOT = '1700005001.000100';
const WAITING = /sub-run this run started is waiting for approval/;

describe('a blocked orchestration child of a running run', () => {
  it('is said in the parent thread once per BLOCKED episode, with its session link', async () => {
    const r = await start();
    const mention = appMentionEvent({ ts: ROOT, text: '<@UBOT0001> ship the release' });
    expect((await r.postSlack(eventCallback(mention))).status).toBe(200);
    const parentId = await waitUntil(() => r.emulator.runs.all()[0]?.run_id, { timeoutMs: 10_000 });
    r.emulator.setState(parentId, 'INPROGRESS');
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

  it('a blocked run that descends from no tracked run is not said anywhere', async () => {
    const r = await start();
    const mention = appMentionEvent({ ts: ROOT, text: '<@UBOT0001> ship the release' });
    expect((await r.postSlack(eventCallback(mention))).status).toBe(200);
    const parentId = await waitUntil(() => r.emulator.runs.all()[0]?.run_id, { timeoutMs: 10_000 });
    r.emulator.setState(parentId, 'INPROGRESS');
    const stranger = r.emulator.createRunDirect({ prompt: 'someone else’s orchestration' });
    r.emulator.createRunDirect(
      { prompt: 'their child', parent_run_id: stranger.run_id },
      { state: 'BLOCKED', manual: true },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(r.slack.messages.some((m) => WAITING.test(m.text))).toBe(false);
  }, 30_000);
});
