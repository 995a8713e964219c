/**
 * The run page (and the runs list) as an operator reads it: the requester named once when the name is the id,
 * a state the page names alike twice in a row shown as one row, and a reaction described by
 * what it marks (not "reaction failed" beside a delivered notification).
 */
import { describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../src/core/ports/index.js';
import { runBody } from '../../src/console/pages/run-page.js';
import { runsBody } from '../../src/console/pages/runs-page.js';
import type { PageContext } from '../../src/console/pages/layout.js';
import { sampleRun } from '../store/harness.js';

const T0 = Date.parse('2030-01-01T10:00:00Z');
const run = sampleRun({
  threadKey: 'github:acme/web:issue:7',
  requester: { id: 'alice', name: 'alice' },
  state: 'FAILED',
  createdAt: T0,
  updatedAt: T0 + 60_000,
});
const ctx: PageContext = {
  operator: { id: 'local:admin', name: 'local admin', via: 'local' },
  role: 'operator',
  csrf: 'csrf',
  now: T0 + 120_000,
  here: '/console/runs/x',
  stamp: '1',
};
const reaction: OutboxItem = {
  id: 3,
  threadKey: run.threadKey,
  payload: {
    kind: 'react',
    destination: { threadKey: run.threadKey },
    target: { threadKey: run.threadKey, id: 'comment-7' },
    reaction: 'failed',
  },
  status: 'delivered',
  attempts: 1,
  nextAttemptAt: T0,
  createdAt: T0 + 60_000,
};

function page(patch: Partial<Parameters<typeof runBody>[0]> = {}): string {
  return runBody(
    {
      run,
      history: [],
      otherRuns: [],
      triggers: [],
      notifications: [],
      githubWebUrl: 'https://github.com',
      ...patch,
    },
    ctx,
  ).toString();
}

const text = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('the run page', () => {
  it('names the requester once when the name is the id, and both when they differ', () => {
    expect(text(page())).toContain('Requester alice Place');
    const named = page({ run: { ...run, requester: { id: 'U123', name: 'Ada' } } });
    expect(text(named)).toContain('Requester Ada U123 Place');
    const unnamed = page({ run: { ...run, requester: { id: 'U0DANA' } } });
    expect(text(unnamed)).toContain('Requester U0DANA Place');
  });

  it('in the runs list too: a requester without a name is named once', () => {
    const list = runsBody(
      {
        runs: [{ ...run, requester: { id: 'U0DANA' } }],
        filter: {},
        details: new Map(),
        githubWebUrl: 'https://github.com',
      },
      ctx,
    ).toString();
    expect(text(list).match(/U0DANA/g)).toHaveLength(1);
  });

  it('shows one row for states the page names alike, one after the other', () => {
    const body = page({
      history: [
        { state: 'QUEUED', at: T0 },
        { state: 'PENDING', at: T0 + 5_000 },
        { state: 'INPROGRESS', at: T0 + 20_000 },
        { state: 'FAILED', at: T0 + 60_000 },
      ],
    });
    const rows = body.slice(body.indexOf('<table class="rows history">')).split('</table>')[0]!;
    const states = [...rows.matchAll(/<td data-label="State">([\s\S]*?)<\/td>/g)].map((m) =>
      text(m[1]!),
    );
    expect(states).toEqual(['Waiting for a machine', 'Running', 'Failed']);
    // The merged row lasts until the next state the page names differently.
    expect(text(rows)).toMatch(/Waiting for a machine [\d-]+ 10:00:00 20s Running/);
  });

  it('says what a reaction marks, and no "(approximate)" beside a "≈"', () => {
    const body = text(page({ notifications: [reaction] }));
    expect(body).toContain('reaction: run failed');
    expect(body).not.toContain('reaction failed');
    expect(body).not.toContain('(approximate)');
  });
});
