import { describe, expect, it } from 'vitest';
import { renderGitHubMarkdown } from '../../../src/github/render/render-markdown.js';
import { sampleRun } from '../models.js';

const usage = { costUsd: 1.24, tokens: 312_000 };
const LINE = 'Used about $1.24 · 312k tokens';

describe('GitHub: what a run cost', () => {
  it('the card shows the usage line when reported; the outcome comment points at the card', () => {
    const run = sampleRun('SUCCEEDED', { runTime: '14m', usage });
    expect(renderGitHubMarkdown({ type: 'run_status', run })).toContain(LINE);
    expect(renderGitHubMarkdown({ type: 'run_outcome', run })).not.toContain('Used');
  });

  it('omits it when nothing was reported', () => {
    const run = sampleRun('SUCCEEDED', { runTime: '14m' });
    for (const type of ['run_status', 'run_outcome'] as const) {
      const md = renderGitHubMarkdown({ type, run });
      expect(md).not.toContain('Used');
      expect(md).not.toContain('$');
      expect(md).not.toContain('tokens');
    }
  });

  it('status: the cost so far of a live run', () => {
    const run = sampleRun('INPROGRESS', { runTime: undefined, usage: { costUsd: 0.08 } });
    expect(renderGitHubMarkdown({ type: 'run_brief', run, hasCard: true })).toContain(
      'Used about $0.08 so far',
    );
    expect(renderGitHubMarkdown({ type: 'run_status', run })).toContain('Used about $0.08 so far');
  });
});

describe("GitHub: a place's list", () => {
  it("shows each run's cost and ends with the month's total", () => {
    const md = renderGitHubMarkdown({
      type: 'run_list',
      runs: [sampleRun('SUCCEEDED', { usage })],
      filters: {},
      truncated: false,
      scope: 'place',
      month: { name: 'November 2026', spentUsd: 3.75 },
    });
    expect(md).toContain('| Cost |');
    expect(md).toContain('≈ $1.24 |');
    expect(md.trim().endsWith('This repository has spent about $3.75 in November 2026 (UTC)')).toBe(
      true,
    );
  });
});
