/**
 * Headlines only move forward: over any sequence of service states (unknown ones and steps
 * back included), the status message the tracker queues reads, within one episode, Starting…
 * → Waiting for a machine → Getting ready → Running → the outcome, on Slack and on GitHub.
 * A property test (fast-check, bounded; the seed is printed so a failure can be replayed).
 */
import { propertyOptions } from '../../helpers/property.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunItem } from '../../../src/agent/schemas.js';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import type { RunRecord } from '../../../src/core/ports/index.js';
import { STARTING_STATE } from '../../../src/core/message/state-view.js';
import { observeRun } from '../../../src/runs/run-changes.js';
import { renderSlackMessage } from '../../../src/slack/render/render-blocks.js';
import { renderGitHubMarkdown } from '../../../src/github/render/render-markdown.js';

/** The words of each step, in order; everything after "Running" ends the episode. */
const SLACK_ORDER = ['Starting…', 'Waiting for a machine', 'Getting ready', 'Running'];
const GITHUB_ORDER = [
  'is starting:',
  'is waiting for a machine:',
  'is getting ready:',
  'is working on:',
];
const ENDS = ['BLOCKED', 'SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];
const STATES = ['QUEUED', 'PENDING', 'CLAIMED', 'INPROGRESS', ...ENDS, 'PAUSED_FOR_REVIEW'];

const INTERVALS = { baseMs: 1_000, maxMs: 10_000, blockedMs: 5_000 };

function startRecord(): RunRecord {
  return {
    runId: 'run-1',
    threadKey: 'slack:T1:C1:1700000000.000100',
    platform: 'slack',
    requestId: 'slack:r1',
    requester: { id: 'U1' },
    title: 'Fix the login loop',
    state: STARTING_STATE,
    applied: [],
    nextCheckAt: 0,
    checkIntervalMs: 1_000,
    tracked: true,
    createdAt: 0,
    updatedAt: 0,
  };
}

/**
 * The rank of a headline in `order`. A state the contract does not name is shown as it comes
 * and ranks with Running; ended/BLOCKED rank past the end.
 */
function rank(order: string[], text: string): number {
  if (/PAUSED\\?_FOR\\?_REVIEW/.test(text)) return order.length - 1;
  const i = order.findIndex((w) => text.includes(w));
  return i === -1 ? order.length : i;
}

function slackHeadline(model: MessageModel): string {
  return renderSlackMessage(model).text;
}

function githubHeadline(model: MessageModel): string {
  return renderGitHubMarkdown(model).split('\n')[0] ?? '';
}

/** The tracker's `i`-th look at the run: the service says `state`, a second later each time. */
function nthLook(record: RunRecord, state: string, i: number) {
  const item: RunItem = {
    run_id: 'run-1',
    title: 'Fix the login loop',
    prompt: 'p',
    state,
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: new Date(Date.UTC(2030, 0, 1, 0, 0, i + 1)).toISOString(),
  };
  return observeRun({ record, item, now: i * 1_000, intervals: INTERVALS });
}

describe('headlines only move forward', () => {
  it('any sequence of service states', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...STATES), { maxLength: 30 }), (states) => {
        let record = startRecord();
        let slack: number[] = [0];
        let github: number[] = [0];
        states.forEach((state, i) => {
          const seen = nthLook(record, state, i);
          record = { ...record, ...seen.patch };
          for (const n of seen.notifications) {
            if (n.kind !== 'status' || n.message === undefined) continue;
            slack.push(rank(SLACK_ORDER, slackHeadline(n.message)));
            github.push(rank(GITHUB_ORDER, githubHeadline(n.message)));
          }
          for (const ranks of [slack, github]) {
            expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
          }
          // An ended or BLOCKED state closes the episode: a follow-up starts again.
          if (ENDS.includes(state)) {
            slack = [];
            github = [];
          }
        });
      }),
      propertyOptions(500),
    );
  });

  it('a step back reported by the service keeps the headline, then moves on', () => {
    let record = startRecord();
    const shown: string[] = [];
    ['CLAIMED', 'QUEUED', 'PENDING', 'INPROGRESS', 'CLAIMED', 'SUCCEEDED'].forEach((state, i) => {
      const seen = nthLook(record, state, i);
      record = { ...record, ...seen.patch };
      for (const n of seen.notifications) {
        if (n.kind === 'status' && n.message) shown.push(slackHeadline(n.message));
      }
    });
    expect(shown.map((t) => t.split(': ').at(-1))).toEqual([
      'Getting ready',
      'Running',
      'Succeeded',
    ]);
  });
});
