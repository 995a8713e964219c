import { describe, expect, it } from 'vitest';
import { renderSlackMessage } from '../../../src/slack/render/render-blocks.js';
import { sampleRun } from '../../github/models.js';

const usage = { costUsd: 1.24, tokens: 312_000 };
const LINE = 'Used about $1.24 · 312k tokens';

function textOf(message: ReturnType<typeof renderSlackMessage>): string {
  return JSON.stringify(message.blocks);
}

describe('Slack: what a run cost', () => {
  it('the final reply shows the usage line when the service reported it', () => {
    const run = sampleRun('SUCCEEDED', { runTime: '14m', usage });
    const out = renderSlackMessage({ type: 'run_outcome', run });
    expect(textOf(out)).toContain(LINE);
    expect(out.text).toContain(LINE);
  });

  it('omits it when nothing was reported, and never shows a 0', () => {
    const out = renderSlackMessage({
      type: 'run_outcome',
      run: sampleRun('SUCCEEDED', { runTime: '14m' }),
    });
    expect(textOf(out)).not.toContain('Used');
    expect(textOf(out)).not.toContain('tokens');
    const tokensOnly = renderSlackMessage({
      type: 'run_outcome',
      run: sampleRun('FAILED', { runTime: '14m', usage: { tokens: 5_000 } }),
    });
    expect(textOf(tokensOnly)).toContain('Used 5k tokens');
    expect(textOf(tokensOnly)).not.toContain('$');
  });

  it('status: the cost so far of a live run', () => {
    const run = sampleRun('INPROGRESS', { runTime: undefined, usage: { costUsd: 0.08 } });
    const brief = renderSlackMessage({ type: 'run_brief', run, hasCard: true });
    expect(textOf(brief)).toContain('Used about $0.08 so far');
    const card = renderSlackMessage({ type: 'run_status', run });
    expect(textOf(card)).toContain('Used about $0.08 so far');
    // Once ended, the outcome reply says it, not the card.
    const ended = renderSlackMessage({
      type: 'run_status',
      run: sampleRun('SUCCEEDED', { usage }),
    });
    expect(textOf(ended)).not.toContain('Used');
  });
});

describe("Slack: a place's list", () => {
  it("shows each run's cost and ends with the month's total", () => {
    const out = renderSlackMessage({
      type: 'run_list',
      runs: [sampleRun('SUCCEEDED', { usage }), sampleRun('QUEUED', { runId: 'run_2' })],
      filters: {},
      truncated: false,
      scope: 'place',
      month: { name: 'November 2026', spentUsd: 3.75, budgetUsd: 20 },
    });
    const blocks = textOf(out);
    // A list is terse (≈); the month's total is a sentence, and says it once.
    expect(blocks.match(/≈ \$/g)).toEqual(['≈ $']); // the run that reported
    expect(blocks).toContain('≈ $1.24');
    expect(blocks).toContain(
      'This channel has spent about $3.75 in November 2026 (UTC) of its $20 budget',
    );
    expect(blocks).not.toContain('approximate');
  });
});
