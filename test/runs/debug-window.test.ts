/**
 * A run failed during environment setup and the service keeps its session open for
 * debugging: a follow-up in that window goes to a debugging agent and the run stays FAILED.
 * The person is told where their message went, and the old failure is not announced again.
 */
import { describe, expect, it } from 'vitest';
import { appMentionEvent, eventCallback } from '../helpers/slack.js';
import { relayPerTest } from '../helpers/relay.js';
import { waitUntil } from '../helpers/wait-until.js';

const start = relayPerTest();
const ROOT = '1700004001.000100';
const DEBUG_NOTICE = /went to the debugging session/;

/**
 * A relay with a run started by a mention in thread ROOT whose environment setup fails, its
 * session kept open for debugging for `debugMs`: the relay and the run's id.
 */
async function setupFailsFor(debugMs: number) {
  const r = await start();
  const mention = appMentionEvent({ ts: ROOT, text: '<@UBOT0001> build the app [slow]' });
  expect((await r.postSlack(eventCallback(mention))).status).toBe(200);
  const runId = await waitUntil(() => r.emulator.runs.all()[0]?.run_id, { timeoutMs: 10_000 });
  r.emulator.failSetup(runId, debugMs);
  return { r, runId };
}

describe('follow-up in the debug window of a setup failure', () => {
  it('Slack: says the message went to the debugging session; the failure is not re-posted', async () => {
    const { r, runId } = await setupFailsFor(600_000);

    // The failure is announced once, in the thread (the outcome reply mentions the requester).
    const outcomes = () =>
      r.slack.messages.filter(
        (m) => m.thread_ts === ROOT && m.bot_id !== undefined && /<@UALICE01>/.test(m.text),
      );
    await waitUntil(() => outcomes().length === 1, { timeoutMs: 10_000 });
    expect(outcomes()[0]?.text).toMatch(/fail/i);

    const reply = await r.replyInSlack(ROOT, 'why did npm ci fail?');

    const told = await waitUntil(
      () => r.slack.messages.find((m) => m.thread_ts === ROOT && DEBUG_NOTICE.test(m.text)),
      { timeoutMs: 10_000 },
    );
    expect(JSON.stringify(told.blocks)).toContain(`/sessions/`);
    expect(r.emulator.followups.map((f) => f.message)).toEqual(['why did npm ci fail?']);
    await waitUntil(() => r.slack.message('CGENERAL1', reply)?.reactions.includes('ok_hand'));

    // A few tracker cycles later: still one announcement of the failure, the run still FAILED.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(outcomes()).toHaveLength(1);
    expect(r.emulator.runs.get(runId)?.state).toBe('FAILED');
    expect(r.emulator.runs.get(runId)?.status_message?.error_code).toBe('environment_setup_failed');
  }, 25_000);

  it('after the window closed, a follow-up continues the run as before', async () => {
    const { r, runId } = await setupFailsFor(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await r.replyInSlack(ROOT, 'try again');
    await waitUntil(() => r.emulator.runs.get(runId)?.state !== 'FAILED', { timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.slack.messages.some((m) => DEBUG_NOTICE.test(m.text))).toBe(false);
  }, 25_000);
});
