/**
 * The agent's steps as `action` activities. The progress the status message carries (the
 * newest steps of the run's conversation, read by the tracker's progress loop within its
 * budget) is all there is to read: no reads of its own. A step is written once, when it has
 * finished (the action, its parameter and its result), so no step ever costs two activities;
 * each session gets at most `perMinute` of them (a token bucket holding a minute's worth), and
 * a step that finds the bucket empty waits for a later edit while it is still among the
 * newest. The ids are derived from run and step, so a copy (a retry, another replica) is
 * refused by Linear instead of shown twice.
 */
import type { RunView } from '../../core/message/message-model.js';
import type { StepView } from '../../core/message/progress.js';
import type { Activity } from '../api/activity-content.js';
import { activityIdFor } from '../api/activity-id.js';

/** A few a minute: enough to follow the work, never a flood in the issue. */
export const DEFAULT_ACTIONS_PER_MINUTE = 6;

export interface StepAction {
  id: string;
  activity: Activity;
}

export interface StepActions {
  /** The activities due for this run's steps now (each step once, within the budget). */
  due(session: string, run: RunView, now: number): StepAction[];
  /** The run's session is done with: forget it. */
  forget(session: string): void;
}

interface SessionMemory {
  runId: string;
  written: Set<string>;
  tokens: number;
  at: number;
}

function actionOf(step: StepView): Activity {
  return {
    content: {
      type: 'action',
      action: step.action ?? step.title,
      parameter: step.parameter ?? '',
      result: step.state === 'failed' ? 'Failed' : 'Done',
    },
  };
}

export function createStepActions(perMinute = DEFAULT_ACTIONS_PER_MINUTE): StepActions {
  const sessions = new Map<string, SessionMemory>();
  const perMs = perMinute / 60_000;
  return {
    due(session, run, now) {
      const progress = run.progress;
      if (perMinute <= 0 || progress?.kind !== 'steps') return [];
      let memory = sessions.get(session);
      // A new run in the session (a fresh start after the last ended) starts afresh.
      if (!memory || memory.runId !== run.runId) {
        memory = { runId: run.runId, written: new Set(), tokens: perMinute, at: now };
        sessions.set(session, memory);
      }
      memory.tokens = Math.min(perMinute, memory.tokens + Math.max(0, now - memory.at) * perMs);
      memory.at = Math.max(memory.at, now);
      const out: StepAction[] = [];
      for (const step of progress.steps) {
        if (step.id === undefined || step.state === 'running' || memory.written.has(step.id))
          continue;
        if (memory.tokens < 1) break;
        memory.tokens -= 1;
        memory.written.add(step.id);
        out.push({
          id: activityIdFor(`step:${run.runId}:${step.id}`),
          activity: actionOf(step),
        });
      }
      return out;
    },
    forget(session) {
      sessions.delete(session);
    },
  };
}
