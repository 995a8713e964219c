/**
 * What people see while a run works, through the real relay (Bolt, webhooks, SQLite, the
 * agent client) against the emulator and the fake Slack and GitHub: the status message shows
 * the agent's last steps (and set-up before them), edited only when they change, the
 * headline never steps back, the final reply carries the agent's own words, a run without a
 * readable conversation shows its state only, and a follow-up says where it went.
 */
import { describe, expect, it } from 'vitest';
import { headlineRank } from '../../src/core/message/headline-order.js';
import { blockText } from '../helpers/repetition.js';
import { appMentionEvent, eventCallback } from '../helpers/slack.js';
import { relayPerTest } from '../helpers/relay.js';
import { waitUntil } from '../helpers/wait-until.js';
import { validGitHubBody } from '../reliability/hostile-github.js';

// Runs set up slowly enough (800 ms claimed) and work long enough ([slow]: 4 s) for a
// progress read every 150 ms to see set-up and several steps.
const startRelay = relayPerTest({
  timings: { queuedMs: 60, pendingMs: 60, claimedMs: 800, runMs: 300, slowRunMs: 4_000 },
  engineOptions: { progressIntervalMs: 150, progressReadsPerMinute: 6_000 },
});

const ROOT = '1700009001.000100';
const isOutcome = (text: string) => /^<@UALICE01> /.test(text);

const HEADLINE_STATE: [RegExp, string][] = [
  [/: Starting/, 'STARTING'],
  [/: Waiting for a machine/, 'QUEUED'],
  [/: Getting ready/, 'CLAIMED'],
  [/: Running/, 'INPROGRESS'],
  [/: (Succeeded|Failed|Error|Cancelled|Waiting for input|Blocked)/, 'SUCCEEDED'],
];

function stateOf(text: string): string {
  return HEADLINE_STATE.find(([re]) => re.test(text))?.[1] ?? 'UNKNOWN';
}

describe('Slack: the status message shows what the agent is doing', () => {
  it('set-up, then the last steps as they change, then the agent’s own answer in the reply', async () => {
    const r = await startRelay();
    const body = eventCallback(
      appMentionEvent({ ts: ROOT, text: '<@UBOT0001> tidy the README [slow]' }),
    );
    expect((await r.postSlack(body)).status).toBe(200);
    const card = () =>
      r.slack.messages.find((m) => m.thread_ts === ROOT && m.bot_id && !isOutcome(m.text));
    const outcome = await waitUntil(
      () => r.slack.messages.find((m) => m.thread_ts === ROOT && isOutcome(m.text)),
      { timeoutMs: 15_000, message: 'the outcome reply' },
    );
    const shown = card()!.history.map((h) => ({ text: h.text, blocks: blockText(h.blocks) }));

    // Set-up was shown while the run got ready, then steps with their states.
    expect(shown.some((h) => /Setting up:.*environment ready/.test(h.blocks))).toBe(true);
    const withSteps = shown.filter((h) => h.blocks.includes('Now:'));
    expect(withSteps.length).toBeGreaterThanOrEqual(2);
    expect(
      withSteps.some((h) => /Search codebase: where the change belongs.*\(done\)/.test(h.blocks)),
    ).toBe(true);
    expect(withSteps.some((h) => /\(in progress\)/.test(h.blocks))).toBe(true);
    expect(withSteps.every((h) => stateOf(h.text) === 'INPROGRESS')).toBe(true);

    // Edited only when what it shows changed: no two versions in a row are the same.
    for (let i = 1; i < shown.length; i++) {
      expect(shown[i], `version ${i}`).not.toEqual(shown[i - 1]);
    }
    // The headline never stepped back.
    const ranks = shown.map((h) => headlineRank(stateOf(h.text)));
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);

    // Once ended, the card no longer says what the agent is doing; the reply has its words,
    // its Markdown re-written for Slack (bold is one star, list items are bullets).
    expect(shown.at(-1)?.blocks).not.toContain('Now:');
    const words = blockText(outcome.blocks);
    expect(words).toContain('Done. I changed *src/index.ts* and opened a pull request.');
    expect(words).toContain('• `npm test` passes');

    // The budget's progress reads were the only ones: never more than one per run per
    // interval (4 s of work / 150 ms, with set-up).
    const progressReads =
      r.emulator.requests.get('GET /agent/runs/:id/conversation') +
      r.emulator.requests.get('GET /agent/runs/:id/timeline');
    expect(progressReads).toBeGreaterThan(2);
    expect(progressReads).toBeLessThanOrEqual(Math.ceil((4_000 + 800) / 150) + 3);
  }, 25_000);

  it('a run whose conversation the service cannot normalize shows its state only, silently', async () => {
    const r = await startRelay();
    const body = eventCallback(
      appMentionEvent({ ts: ROOT, text: '<@UBOT0001> run elsewhere [harness] [slow]' }),
    );
    await r.postSlack(body);
    const outcome = await waitUntil(
      () => r.slack.messages.find((m) => m.thread_ts === ROOT && isOutcome(m.text)),
      { timeoutMs: 15_000, message: 'the outcome reply' },
    );
    const card = r.slack.messages.find(
      (m) => m.thread_ts === ROOT && m.bot_id && !isOutcome(m.text),
    )!;
    expect(card.history.some((h) => blockText(h.blocks).includes('Now:'))).toBe(false);
    // The reply is the one line, without words the service could not give.
    expect(outcome.blocks).toHaveLength(1);
    const loud = r.logs
      .lines()
      .filter((l) => Number(l.level) >= 40 && /progress|conversation/i.test(String(l.msg)));
    expect(loud).toEqual([]);
  }, 25_000);

  it('a follow-up to the running agent says it was delivered', async () => {
    const r = await startRelay();
    await r.postSlack(
      eventCallback(appMentionEvent({ ts: ROOT, text: '<@UBOT0001> long job [slow]' })),
    );
    await waitUntil(() => r.emulator.runs.all().find((x) => x.state === 'INPROGRESS'), {
      timeoutMs: 10_000,
    });
    await r.replyInSlack(ROOT, 'also the docs');
    const said = await waitUntil(
      () => r.slack.messages.find((m) => m.thread_ts === ROOT && /Your message:/.test(m.text)),
      { timeoutMs: 10_000, message: 'where the follow-up went' },
    );
    expect(said.text).toContain('delivered to the running agent');
  }, 25_000);
});

describe('GitHub: the status comment shows what the agent is doing', () => {
  it('the last steps while it runs; the final comment carries the agent’s words, escaped', async () => {
    const r = await startRelay();
    const res = await r.postGitHub(validGitHubBody('@agent-relay tidy the README [slow]', 42), {
      event: 'issue_comment',
      deliveryId: 'delivery-progress-42',
    });
    expect(res.status).toBe(202);
    const thread = () => r.github.commentsOn('octo-org', 'widgets', 42);
    const outcome = await waitUntil(() => thread().find((c) => c.body.startsWith('@alice ')), {
      timeoutMs: 15_000,
      message: 'the outcome comment',
    });
    const card = thread().find((c) => c.author.endsWith('[bot]') && c !== outcome)!;
    const versions = [card.firstBody, ...card.edits];
    expect(
      versions.some((b) =>
        /\*\*Now:\*\*\n- ✅ Search codebase: where the change belongs _\(done\)_/.test(b),
      ),
    ).toBe(true);
    expect(versions.some((b) => b.includes('**Setting up:**'))).toBe(true);
    expect(card.body).not.toContain('**Now:**');
    expect(outcome.body).toContain('Done. I changed **src/index.ts** and opened a pull request.');
    expect(outcome.body).toContain('- `npm test` passes');
  }, 25_000);
});
