/**
 * The run's steps as `action` activities: each finished step once, with its result, within a
 * per-session budget a minute.
 */
import { describe, expect, it } from 'vitest';
import type { RunView } from '../../src/core/message/message-model.js';
import type { StepView } from '../../src/core/message/progress.js';
import { createStepActions } from '../../src/linear/notify/step-actions.js';

const step = (id: string, state: StepView['state'], parameter = `p-${id}`): StepView => ({
  title: `Run command: ${parameter}`,
  state,
  id,
  action: 'Run command',
  parameter,
});

const runWith = (steps: StepView[], runId = 'run-1') =>
  ({ runId, progress: { kind: 'steps', steps } }) as unknown as RunView;

describe('action activities from the run’s steps', () => {
  it('writes a step once, when it has finished, with its action, parameter and result', () => {
    const actions = createStepActions(6);
    expect(actions.due('s', runWith([step('a', 'running')]), 0)).toEqual([]);
    const first = actions.due('s', runWith([step('a', 'done'), step('b', 'running')]), 1_000);
    expect(first.map((a) => a.activity.content)).toEqual([
      { type: 'action', action: 'Run command', parameter: 'p-a', result: 'Done' },
    ]);
    const next = actions.due('s', runWith([step('a', 'done'), step('b', 'failed')]), 2_000);
    expect(next.map((a) => a.activity.content)).toEqual([
      { type: 'action', action: 'Run command', parameter: 'p-b', result: 'Failed' },
    ]);
    expect(actions.due('s', runWith([step('a', 'done'), step('b', 'failed')]), 3_000)).toEqual([]);
    // Stable ids: a copy written elsewhere is the same activity.
    expect(first[0]!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-/);
    expect(createStepActions(6).due('s', runWith([step('a', 'done')]), 0)[0]!.id).toBe(
      first[0]!.id,
    );
  });

  it('never more than the budget a minute per session; the rest wait while still shown', () => {
    const actions = createStepActions(2);
    const three = runWith([step('a', 'done'), step('b', 'done'), step('c', 'done')]);
    expect(actions.due('s', three, 0)).toHaveLength(2);
    expect(actions.due('s', three, 1_000)).toHaveLength(0);
    // Another session has its own budget.
    expect(actions.due('t', three, 1_000)).toHaveLength(2);
    // Half a minute later one more is allowed: the step that waited.
    const later = actions.due('s', three, 30_000);
    expect(later.map((a) => a.activity.content)).toEqual([
      { type: 'action', action: 'Run command', parameter: 'p-c', result: 'Done' },
    ]);
  });

  it('a new run in the session starts afresh; no steps, no actions; 0 a minute turns them off', () => {
    const actions = createStepActions(6);
    expect(actions.due('s', runWith([step('a', 'done')]), 0)).toHaveLength(1);
    expect(actions.due('s', runWith([step('a', 'done')], 'run-2'), 10)).toHaveLength(1);
    expect(actions.due('s', { runId: 'run-2' } as unknown as RunView, 20)).toEqual([]);
    expect(createStepActions(0).due('s', runWith([step('a', 'done')]), 0)).toEqual([]);
  });
});
