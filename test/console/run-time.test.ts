/**
 * One run time per run: the Slack card, the GitHub card, App Home and the console all show
 * the service's run_time (cumulative over every execution, so earlier executions are not added
 * again), never a clock of their own (the relay's record times move on a restart).
 */
import { describe, expect, it } from 'vitest';
import type { RunItem } from '../../src/agent/schemas.js';
import { runStatusMessage } from '../../src/core/message/render-model.js';
import { viewOf } from '../../src/core/message/run-view.js';
import { runTime } from '../../src/console/pages/run-summary.js';
import { renderGitHubMarkdown } from '../../src/github/render/render-markdown.js';
import { renderSlackMessage } from '../../src/slack/render/render-blocks.js';
import { buildHomeView } from '../../src/slack/home/home-view.js';
import { sampleRun } from '../store/harness.js';

const T0 = Date.parse('2030-01-01T10:00:00Z');
// The relay's own clock: created on arrival, touched again after a restart.
const record = sampleRun({
  state: 'SUCCEEDED',
  earlierRunMs: 40_000,
  createdAt: T0,
  updatedAt: T0 + 600_000,
});
const detail: RunItem = {
  run_id: record.runId,
  title: record.title,
  prompt: 'fix it',
  state: 'SUCCEEDED',
  created_at: '2030-01-01T10:00:01Z',
  started_at: '2030-01-01T10:00:05Z',
  updated_at: '2030-01-01T10:00:30Z',
  run_time: 'PT20S',
};

describe('run time, one definition', () => {
  it('Slack, GitHub, App Home and the console show the same number', () => {
    const now = T0 + 3_600_000;
    // The service's cumulative run_time, as it reports it: not the record's times, and not
    // earlierRunMs added on top.
    const expected = '20s';
    const view = viewOf(record, detail, now);
    expect(view.runTime).toBe(expected);
    expect(
      renderSlackMessage(runStatusMessage(view))
        .blocks.map((b) => JSON.stringify(b))
        .join(),
    ).toContain(`· ${expected}`);
    expect(renderGitHubMarkdown(runStatusMessage(view))).toContain(`| Run time | ${expected} |`);
    const home = JSON.stringify(
      buildHomeView({
        mine: [{ view, channel: 'C1' }],
        channels: [],
        showChannels: false,
        personal: {},
      }),
    );
    expect(home).toContain(expected);
    expect(runTime(record, detail, now)).toBe(expected);
  });
});
