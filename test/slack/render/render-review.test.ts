/**
 * A question about a run in Block Kit and on a GitHub check run: a long plan collapsed to its
 * first lines with the whole plan a click away, a short one shown whole; every answer bound to
 * the run and the version; the whole plan for one person without answers; a cap's Continue and
 * Stop here; hostile words in a plan never become a mention.
 */
import { describe, expect, it } from 'vitest';
import type { MessageModel, RunView } from '../../../src/core/message/message-model.js';
import { toRunView } from '../../../src/core/message/run-view.js';
import { PLAN_PREVIEW_LINES } from '../../../src/core/message/review-text.js';
import { renderSlackMessage } from '../../../src/slack/render/render-blocks.js';
import { REVIEW_ACTION_IDS } from '../../../src/slack/api/action-ids.js';
import { renderCheckRun } from '../../../src/github/render/render-check-run.js';

function blocked(): RunView {
  return toRunView({
    run: {
      run_id: 'run_7f3a9c',
      title: 'Fix the login redirect loop',
      state: 'BLOCKED',
      prompt: 'Fix the login redirect loop',
      created_at: '2030-01-01T10:00:00Z',
      updated_at: '2030-01-01T10:04:12Z',
    },
    record: { requester: { platform: 'slack', id: 'UALICE01' }, applied: [] },
  });
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}. Step ${i + 1}`);

function plan(markdown: string, extra: Partial<Extract<MessageModel, { type: 'review' }>> = {}) {
  return {
    type: 'review',
    run: blocked(),
    review: { kind: 'plan', version: 3, plan: { markdown, title: 'Fix the loop' } },
    ...extra,
  } as const satisfies MessageModel;
}

type Element = { action_id?: string; value?: string };
const buttons = (blocks: unknown[]): Element[] =>
  (blocks as { type: string; elements?: Element[] }[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements ?? []);

describe('a plan in Slack', () => {
  it('a long plan shows its first lines and offers the whole plan; every answer is bound', () => {
    const { blocks, text } = renderSlackMessage(plan(lines(PLAN_PREVIEW_LINES + 5).join('\n')));
    const json = JSON.stringify(blocks);
    expect(text).toContain('<@UALICE01>');
    expect(json).toContain(`Step ${PLAN_PREVIEW_LINES}`);
    expect(json).not.toContain(`Step ${PLAN_PREVIEW_LINES + 1}`);
    expect(buttons(blocks).map((b) => [b.action_id, b.value])).toEqual([
      [REVIEW_ACTION_IDS.approve, 'run_7f3a9c:3'],
      [REVIEW_ACTION_IDS.changes, 'run_7f3a9c:3'],
      [REVIEW_ACTION_IDS.show, 'run_7f3a9c:3'],
      [REVIEW_ACTION_IDS.cancel, 'run_7f3a9c:3'],
    ]);
  });

  it('a short plan is shown whole, without a Show button', () => {
    const { blocks } = renderSlackMessage(plan(lines(4).join('\n')));
    expect(JSON.stringify(blocks)).toContain('Step 4');
    expect(buttons(blocks).map((b) => b.action_id)).not.toContain(REVIEW_ACTION_IDS.show);
  });

  it('the whole plan, for one person: every line, no answers', () => {
    const { blocks } = renderSlackMessage(plan(lines(40).join('\n'), { full: true }));
    expect(JSON.stringify(blocks)).toContain('Step 40');
    expect(buttons(blocks)).toEqual([]);
  });

  it("a plan's words cannot mention anyone", () => {
    const { blocks } = renderSlackMessage(plan('Tell <!channel> and <@U999> about it'));
    const json = JSON.stringify(blocks);
    expect(json).not.toContain('<!channel>');
    expect(json).not.toContain('<@U999>');
  });

  it('a cap: Continue for another cap, Stop here, bound to the version', () => {
    const { blocks } = renderSlackMessage({
      type: 'review',
      run: blocked(),
      review: { kind: 'cap', version: 2, cap: { limitUsd: 2, stepUsd: 1, spentUsd: 2.1 } },
    });
    expect(JSON.stringify(blocks)).toContain('cap of $2');
    expect(buttons(blocks).map((b) => [b.action_id, b.value])).toEqual([
      [REVIEW_ACTION_IDS.continue, 'run_7f3a9c:2'],
      [REVIEW_ACTION_IDS.stop, 'run_7f3a9c:2'],
    ]);
  });
});

describe('a sub-run waiting for approval, in Slack', () => {
  it('says so, with what it says and its session; Approve / Reject bound to the sub-run', () => {
    const { text, blocks } = renderSlackMessage({
      type: 'review',
      run: blocked(),
      review: {
        kind: 'action',
        version: 2,
        subRun: {
          runId: 'run_7f3a9c',
          sessionLink: 'https://agents.example.com/sessions/s_1',
          says: 'May I deploy to <!channel> production?',
        },
      },
    });
    expect(text).toContain('A sub-run this run started is waiting for approval');
    const json = JSON.stringify(blocks);
    expect(json).toContain('It says: May I deploy to');
    expect(json).not.toContain('<!channel>');
    expect(json).toContain('https://agents.example.com/sessions/s_1');
    expect(buttons(blocks).map((b) => [b.action_id, b.value])).toEqual([
      [REVIEW_ACTION_IDS.approve, 'run_7f3a9c:2'],
      [REVIEW_ACTION_IDS.reject, 'run_7f3a9c:2'],
    ]);
  });
});

describe("a plan on a pull request's check run", () => {
  it('completed with action_required: Approve & implement and Cancel, bound to the version', () => {
    const run: RunView = {
      ...blocked(),
      review: { kind: 'plan', version: 3, plan: { markdown: '1. Do it' } },
    };
    const fields = renderCheckRun(run, { pullNumber: 7 });
    expect(fields.status).toBe('completed');
    expect(fields.conclusion).toBe('action_required');
    expect(fields.actions.map((a) => a.identifier)).toEqual(['approve.3', 'cancel.3']);
    for (const a of fields.actions) {
      expect(a.label.length).toBeLessThanOrEqual(20);
      expect(a.description.length).toBeLessThanOrEqual(40);
    }
    expect(fields.output.summary).toContain('Do it');
  });
});
