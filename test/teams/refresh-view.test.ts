/**
 * What a status card's refresh shows: the run's record (any replica has it), or this
 * replica's last view of the card while that view says what the record says.
 */
import { describe, expect, it } from 'vitest';
import { createShownRuns, refreshView } from '../../src/teams/api/shown-runs.js';
import { sampleRun } from '../github/models.js';
import { sampleRun as sampleRecord } from '../store/harness.js';

const NOW = Date.parse('2026-05-01T12:00:00Z');

const record = (state: string) =>
  sampleRecord({
    runId: 'run_01HZX3K9',
    threadKey: 'teams:t1:19:general@thread.tacv2:1700000000000',
    platform: 'teams',
    requester: { id: '29:1alice', name: 'Alice Park' },
    title: 'Fix the *flaky* parser test <script>',
    state,
    applied: [],
    costUsd: 0.42,
  });

describe("a status card's refresh", () => {
  it('a replica that never drew the card builds it from the record, with Stop and Cancel to offer', () => {
    const view = refreshView(record('INPROGRESS'), createShownRuns(), NOW);
    expect(view).toMatchObject({
      runId: 'run_01HZX3K9',
      title: 'Fix the *flaky* parser test <script>',
      state: { name: 'INPROGRESS', live: true },
      requester: { platform: 'teams', id: '29:1alice', name: 'Alice Park' },
      actions: ['cancel', 'status'],
      usage: { costUsd: 0.42 },
    });
  });

  it('the replica that drew it answers with its own view while the record says the same', () => {
    const shown = createShownRuns();
    const drawn = sampleRun('INPROGRESS', {
      progress: { kind: 'steps', steps: [{ title: 'Reading the tests', state: 'running' }] },
    });
    shown.remember(drawn);
    expect(refreshView(record('INPROGRESS'), shown, NOW)).toBe(drawn);
    // Another replica edited the card since (the run ended): the record wins.
    const ended = refreshView(record('SUCCEEDED'), shown, NOW);
    expect(ended.state.name).toBe('SUCCEEDED');
    expect(ended.progress).toBeUndefined();
  });
});
