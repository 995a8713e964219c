import { describe, expect, it } from 'vitest';
import type { RunItem } from '../../src/core/run.js';
import type { RunRecord } from '../../src/core/ports/index.js';
import { hasChanged, looksLikeSummary, observeRun } from '../../src/runs/run-changes.js';
import { sampleRun } from '../store/harness.js';

const record = sampleRun({
  title: 't',
  state: 'INPROGRESS',
  serviceUpdatedAt: '2030-01-01T00:00:10.000Z',
});
const intervals = { baseMs: 2_000, maxMs: 30_000, blockedMs: 60_000 };
const item = (over: Partial<RunItem> = {}): RunItem => ({
  run_id: 'run-1',
  title: 't',
  prompt: 'p',
  state: 'INPROGRESS',
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:10.000Z',
  ...over,
});

describe('hasChanged', () => {
  it('a newer update or another state is a change; the same view is not', () => {
    expect(hasChanged(record, item())).toBe(false);
    expect(hasChanged(record, item({ updated_at: '2030-01-01T00:00:11.000Z' }))).toBe(true);
    expect(hasChanged(record, item({ state: 'BLOCKED' }))).toBe(true);
    expect(hasChanged({ ...record, serviceUpdatedAt: undefined }, item())).toBe(true);
  });

  it('a view older than the one already seen is not applied (it would move the run back)', () => {
    const old = item({ state: 'CLAIMED', updated_at: '2030-01-01T00:00:09.000Z' });
    expect(hasChanged(record, old)).toBe(false);
  });
});

describe('looksLikeSummary', () => {
  it('is a summary only without artifacts, status_message and run_time', () => {
    expect(looksLikeSummary(item())).toBe(true);
    expect(looksLikeSummary(item({ artifacts: [] }))).toBe(false);
    expect(looksLikeSummary(item({ run_time: 'PT3S' }))).toBe(false);
    expect(looksLikeSummary(item({ status_message: { message: 'x' } }))).toBe(false);
  });
});

describe('observeRun', () => {
  const kinds = (i: RunItem, r: RunRecord = record) =>
    observeRun({ record: r, item: i, now: 1, intervals }).notifications.map((n) => n.kind);

  it('edits the status message when the state moves, not when only updated_at does', () => {
    expect(kinds(item({ updated_at: '2030-01-01T00:00:11.000Z' }))).toEqual([]);
    expect(kinds(item({ state: 'SUCCEEDED', updated_at: '2030-01-01T00:00:11.000Z' }))).toEqual([
      'status',
      'post',
    ]);
  });

  it('on the first look, a session link the status message lacks is worth an edit', () => {
    const fresh = { ...record, state: 'QUEUED', serviceUpdatedAt: undefined };
    expect(kinds(item({ state: 'QUEUED' }), fresh)).toEqual([]);
    expect(kinds(item({ state: 'QUEUED', session_link: 'https://s.example/1' }), fresh)).toEqual([
      'status',
    ]);
  });
});

describe('reactions on the triggering message', () => {
  const triggerMessage = { threadKey: record.threadKey, id: 'C1:1700000000.000100' };
  const reactions = (r: RunRecord, i: RunItem) =>
    observeRun({ record: r, item: i, now: 1, intervals }).notifications.filter(
      (n) => n.kind === 'react',
    );

  it('the outcome replaces what said the run was live or waiting', () => {
    const later = { updated_at: '2030-01-01T00:00:11.000Z' };
    const [blocked] = reactions(
      { ...record, triggerMessage },
      item({ state: 'BLOCKED', ...later }),
    );
    expect(blocked).toMatchObject({ reaction: 'blocked' });
    expect(blocked?.replaces).toEqual(expect.arrayContaining(['seen', 'accepted']));
    const wasBlocked = { ...record, triggerMessage, state: 'BLOCKED', notifiedState: 'BLOCKED' };
    const [done] = reactions(wasBlocked, item({ state: 'SUCCEEDED', ...later }));
    expect(done).toMatchObject({ reaction: 'succeeded' });
    expect(done?.replaces).toEqual(expect.arrayContaining(['seen', 'accepted', 'blocked']));
    expect(done?.replaces).not.toContain('succeeded');
  });
});

describe('questions about a run (plan, cap, action)', () => {
  const later = '2030-01-01T00:00:11.000Z';
  /** What the tracker makes of `record` when the service, later, shows the run in `state`. */
  const observeAfter = (record: RunRecord, state: RunItem['state']) =>
    observeRun({ record, item: item({ state, updated_at: later }), now: 1, intervals });
  const planArtifact = {
    artifact_type: 'PLAN',
    data: { artifact_uid: 'a-1', document_uid: 'd-1', title: 'The plan' },
  };
  const planning: RunRecord = {
    ...record,
    applied: [{ key: 'mode', value: 'plan', source: 'inline' }],
  };

  it('a planning run that waits with a plan gets the plan, bound to a new version, not an outcome', () => {
    const seen = observeRun({
      record: { ...planning, review: { kind: 'plan', version: 1, status: 'changes' } },
      item: item({ state: 'BLOCKED', updated_at: later, artifacts: [planArtifact] }),
      now: 1,
      intervals,
      plan: { title: 'The plan', markdown: '1. Do it' },
    });
    const posts = seen.notifications.filter((n) => n.kind === 'post');
    expect(posts.map((n) => n.message?.type)).toEqual(['review']);
    expect(seen.patch.review).toEqual({ kind: 'plan', version: 2, status: 'open' });
  });

  it('a run that was not planning, or whose plan was approved, waits with a plain question', () => {
    for (const r of [
      record,
      { ...planning, review: { kind: 'plan', version: 1, status: 'approved' } } as RunRecord,
    ]) {
      const seen = observeRun({
        record: r,
        item: item({ state: 'BLOCKED', updated_at: later, artifacts: [planArtifact] }),
        now: 1,
        intervals,
      });
      expect(
        seen.notifications.filter((n) => n.kind === 'post').map((n) => n.message?.type),
      ).toEqual(['run_outcome']);
      expect(seen.patch.review).toBeUndefined();
    }
  });

  it('an open plan the run moved on from is closed; a cap stays open until the run works again', () => {
    const waiting = {
      ...planning,
      state: 'BLOCKED',
      review: { kind: 'plan', version: 2, status: 'open' },
    } as RunRecord;
    const gone = observeAfter(waiting, 'CANCELLED');
    expect(gone.patch.review).toEqual({ kind: 'plan', version: 2, status: 'closed' });
    const capped = {
      ...record,
      state: 'INPROGRESS',
      review: { kind: 'cap', version: 1, status: 'open' },
    } as RunRecord;
    const cancelled = observeAfter(capped, 'CANCELLED');
    expect(cancelled.patch.review).toBeUndefined();
    const stopped = observeAfter(capped, 'BLOCKED');
    // Its question was asked already: no second reply for the stop.
    expect(stopped.notifications.filter((n) => n.kind === 'post')).toEqual([]);
  });
});
