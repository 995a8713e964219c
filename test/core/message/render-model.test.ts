import { describe, expect, it } from 'vitest';
import type { RunItem } from '../../../src/core/run.js';
import type {
  AppliedSetting,
  PersonView,
  RunView,
} from '../../../src/core/message/message-model.js';
import {
  configMessage,
  factoryChoice,
  followupSentMessage,
  helpMessage,
  listMessage,
  notice,
  runOutcomeMessage,
  runStatusMessage,
} from '../../../src/core/message/render-model.js';
import { toRunView } from '../../../src/core/message/run-view.js';
import type { RunViewInput } from '../../../src/core/message/run-view.js';

const full = (patch: Partial<RunItem> = {}): RunItem => ({
  run_id: 'run_1',
  title: 'Fix the build',
  prompt: 'fix the build',
  state: 'INPROGRESS',
  created_at: '2025-01-01T10:00:00Z',
  updated_at: '2025-01-01T10:04:12Z',
  ...patch,
});
const alice: PersonView = { platform: 'slack', id: 'U1', name: 'alice' };
const applied: AppliedSetting[] = [{ key: 'model', value: 'm', source: 'inline' }];

describe('toRunView', () => {
  it('a fresh create (id, title, state only)', () => {
    expect(toRunView({ run: { run_id: 'r1', title: 'T', state: 'QUEUED' } })).toEqual({
      runId: 'r1',
      title: 'T',
      state: {
        name: 'QUEUED',
        label: 'Waiting for a machine',
        emoji: '⏳',
        live: true,
        ended: false,
        blocked: false,
      },
      applied: [],
      links: [],
      actions: ['cancel', 'status'],
    });
  });

  it('a full succeeded run with record, links and run time', () => {
    const view = toRunView({
      run: full({
        state: 'SUCCEEDED',
        session_link: 'https://app.example/session/1',
        run_time: 'PT4M12S',
        status_message: { message: 'All good' },
        artifacts: [
          {
            artifact_type: 'PULL_REQUEST',
            data: { url: 'https://github.com/o/r/pull/7', branch: 'b' },
          },
          { artifact_type: 'FILE', data: { filename: 'notes.md' } },
        ],
      }),
      record: { requester: alice, applied, factory: { uid: 'f1', alias: 'fe', name: 'Frontend' } },
    });
    expect(view).toEqual({
      runId: 'run_1',
      title: 'Fix the build',
      state: {
        name: 'SUCCEEDED',
        label: 'Succeeded',
        emoji: '✅',
        live: false,
        ended: true,
        blocked: false,
        success: true,
      },
      requester: alice,
      applied,
      factory: { alias: 'fe', name: 'Frontend' },
      sessionLink: 'https://app.example/session/1',
      links: [
        { kind: 'session', label: 'Session', url: 'https://app.example/session/1' },
        {
          kind: 'pull_request',
          label: 'PR: o/r#7',
          url: 'https://github.com/o/r/pull/7',
          branch: 'b',
        },
        { kind: 'file', label: 'notes.md' },
      ],
      runTime: '4m 12s',
      actions: ['status'],
      createdAt: '2025-01-01T10:00:00Z',
      updatedAt: '2025-01-01T10:04:12Z',
    });
  });

  it.each<[string, RunViewInput, Partial<Record<keyof RunView, unknown>>]>([
    [
      'FAILED shows the status message',
      {
        run: full({ state: 'FAILED', status_message: { message: 'tests fail', error_code: 'x' } }),
      },
      { statusMessage: 'tests fail', actions: ['status'] },
    ],
    [
      // A run waiting for approval is not terminal: the service may cancel it.
      'BLOCKED shows the status message and can be cancelled',
      { run: full({ state: 'BLOCKED', status_message: { message: 'Need approval' } }) },
      { statusMessage: 'Need approval', actions: ['cancel', 'status'] },
    ],
    [
      'a live run with a status message shows it',
      { run: full({ state: 'INPROGRESS', status_message: { message: 'retrying' } }) },
      { statusMessage: 'retrying', actions: ['cancel', 'status'] },
    ],
    [
      'SUCCEEDED hides the status message',
      { run: full({ state: 'SUCCEEDED', status_message: { message: 'done' } }) },
      { statusMessage: undefined },
    ],
    [
      'blank status message is absent',
      { run: full({ state: 'ERROR', status_message: { message: '   ' } }) },
      { statusMessage: undefined },
    ],
    [
      'run time from started_at..updated_at when ended',
      {
        run: full({
          state: 'CANCELLED',
          started_at: '2025-01-01T10:01:00Z',
          updated_at: '2025-01-01T10:03:30Z',
        }),
      },
      { runTime: '2m 30s' },
    ],
    [
      'run time of an ended run without updated_at uses now',
      {
        run: { run_id: 'r', title: 'T', state: 'FAILED', started_at: '2025-01-01T10:00:00Z' },
        now: Date.parse('2025-01-01T10:00:45Z'),
      },
      { runTime: '45s' },
    ],
    [
      'no run time while live (the status message would go stale)',
      {
        run: full({ state: 'INPROGRESS', started_at: '2025-01-01T10:01:00Z' }),
        now: Date.parse('2025-01-01T11:00:00Z'),
      },
      { runTime: undefined },
    ],
    [
      'run_time wins over timestamps, in any state',
      { run: full({ state: 'INPROGRESS', run_time: 'PT5S', started_at: '2025-01-01T10:01:00Z' }) },
      { runTime: '5s' },
    ],
    [
      'unparseable run_time falls back to timestamps',
      {
        run: full({
          state: 'SUCCEEDED',
          run_time: '5 minutes',
          started_at: '2025-01-01T10:00:12Z',
        }),
      },
      { runTime: '4m' },
    ],
    [
      'bad timestamps give no run time',
      { run: full({ state: 'SUCCEEDED', started_at: 'yesterday' }) },
      { runTime: undefined },
    ],
    [
      'a non-cancellable run type has no cancel',
      { run: full({ is_run_type_cancellable: false }) },
      { actions: ['status'] },
    ],
    [
      'an unknown state is live',
      { run: full({ state: 'WARMING_UP' }) },
      { actions: ['cancel', 'status'] },
    ],
    [
      'an empty title is derived from the prompt',
      { run: full({ title: '  ', prompt: '## Please **fix** the login\nmore' }) },
      { title: 'Please fix the login' },
    ],
    [
      'no title and no prompt: the run id',
      { run: { run_id: 'r9', title: '', state: 'QUEUED' } },
      { title: 'r9' },
    ],
    [
      'an unsafe session link is dropped',
      { run: full({ session_link: 'javascript:alert(1)' }) },
      { sessionLink: undefined, links: [] },
    ],
    [
      'a factory record without alias or name is left out',
      { run: full(), record: { factory: { uid: 'f1' } } },
      { factory: undefined },
    ],
  ])('%s', (_name, input, expected) => {
    const view = toRunView(input);
    for (const [key, value] of Object.entries(expected)) {
      expect(view[key as keyof RunView], key).toEqual(value);
      if (value === undefined) expect(key in view, `${key} is absent`).toBe(false);
    }
  });
});

describe('message builders', () => {
  const view = toRunView({ run: { run_id: 'r1', title: 'T', state: 'QUEUED' } });

  it('wrap run views', () => {
    expect(runStatusMessage(view)).toEqual({ type: 'run_status', run: view });
    expect(runOutcomeMessage(view)).toEqual({ type: 'run_outcome', run: view });
    expect(followupSentMessage(view, 'sent')).toEqual({
      type: 'followup_sent',
      run: view,
      message: 'sent',
    });
  });

  it('list', () => {
    expect(listMessage([view], { state: ['QUEUED'], mine: true }, true)).toEqual({
      type: 'run_list',
      runs: [view],
      filters: { state: ['QUEUED'], mine: true },
      truncated: true,
    });
    expect(listMessage([])).toEqual({ type: 'run_list', runs: [], filters: {}, truncated: false });
  });

  it('config sorts settings in help order', () => {
    expect(
      configMessage(
        'slack:T1:C1',
        [
          { key: 'mode', value: 'plan' },
          { key: 'model', value: 'm', updatedBy: 'U1' },
        ],
        ['mode'],
      ),
    ).toEqual({
      type: 'config',
      scope: 'slack:T1:C1',
      settings: [
        { key: 'model', value: 'm', updatedBy: 'U1' },
        { key: 'mode', value: 'plan' },
      ],
      changed: ['mode'],
    });
  });

  it('help lists every option', () => {
    expect(helpMessage('/agent')).toEqual({
      type: 'help',
      invocation: '/agent',
      options: ['model', 'env', 'skill', 'name', 'title', 'mode', 'factory', 'cap'],
    });
  });

  it('notice keeps optional parts absent', () => {
    expect(notice('error', 'bad')).toEqual({ type: 'notice', tone: 'error', text: 'bad' });
    expect(notice('warning', 'w', '/agent help', alice)).toEqual({
      type: 'notice',
      tone: 'warning',
      text: 'w',
      usage: '/agent help',
      mention: alice,
    });
  });

  it('factory choice drops null aliases', () => {
    expect(
      factoryChoice('fe', [
        { uid: 'a', name: 'Frontend', alias: 'fe' },
        { uid: 'b', name: 'Frontend 2', alias: null },
      ]),
    ).toEqual({
      type: 'factory_choice',
      alias: 'fe',
      candidates: [
        { uid: 'a', name: 'Frontend', alias: 'fe' },
        { uid: 'b', name: 'Frontend 2' },
      ],
    });
  });
});

describe('toRunView settings shown', () => {
  it('names what the service chose and leaves out factory and mode nobody set', () => {
    const view = toRunView({
      run: {
        run_id: 'r1',
        title: 't',
        state: 'QUEUED',
        agent_config: { model_id: 'model-from-service' },
      },
      record: {
        applied: [
          { key: 'model', source: 'service' },
          { key: 'env', value: 'prod', source: 'inline' },
          { key: 'skill', source: 'service' },
          { key: 'factory', source: 'service' },
          { key: 'mode', source: 'service' },
        ],
      },
    });
    expect(view.applied).toEqual([
      { key: 'model', value: 'model-from-service', source: 'service' },
      { key: 'env', value: 'prod', source: 'inline' },
      { key: 'skill', source: 'service' },
    ]);
  });
});

describe('toRunView run time over every execution', () => {
  it("shows the service's run_time as is: it already covers every execution", () => {
    const view = toRunView({
      run: { run_id: 'r', title: 't', state: 'SUCCEEDED', run_time: 'PT2M3S' },
      record: { earlierRunMs: 63_000 },
    });
    expect(view.runTime).toBe('2m 3s');
  });

  it('adds the earlier executions to a run time computed from started_at', () => {
    const view = toRunView({
      run: {
        run_id: 'r',
        title: 't',
        state: 'SUCCEEDED',
        started_at: '2030-01-01T00:00:00.000Z',
        updated_at: '2030-01-01T00:01:00.000Z',
      },
      record: { earlierRunMs: 63_000 },
    });
    expect(view.runTime).toBe('2m 3s');
  });
});
