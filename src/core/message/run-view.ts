/** A stored run plus the service's view of it -> the neutral RunView (render-model.ts). */
import type { PersonView, ReactionName } from './message-model.js';
import type { RunRecord } from '../ports/index.js';
import { toRunView, type RunViewSource } from './render-model.js';
import { stateView } from './state-view.js';
import type { RunView } from './message-model.js';

export function requesterView(run: Pick<RunRecord, 'platform' | 'requester'>): PersonView {
  const { id, name } = run.requester;
  return { platform: run.platform, id, ...(name ? { name } : {}) };
}

export function viewOf(record: RunRecord | undefined, item: RunViewSource, now: number): RunView {
  if (!record) return toRunView({ run: item, now });
  return toRunView({
    run: item,
    record: {
      requester: requesterView(record),
      applied: record.applied,
      ...(record.factory ? { factory: record.factory } : {}),
    },
    now,
  });
}

/** What the service knows right after a create (no detail fetched yet). */
export function freshItem(input: {
  runId: string;
  title: string;
  prompt: string;
  state: string;
  at: number;
}): RunViewSource {
  const at = new Date(input.at).toISOString();
  return {
    run_id: input.runId,
    title: input.title,
    prompt: input.prompt,
    state: input.state,
    created_at: at,
    updated_at: at,
  };
}

/** The reaction that shows an ended or BLOCKED state on the triggering message. */
export function outcomeReaction(state: string): ReactionName | undefined {
  const view = stateView(state);
  if (view.blocked) return 'blocked';
  if (!view.ended) return undefined;
  if (view.success) return 'succeeded';
  return state === 'CANCELLED' ? 'cancelled' : 'failed';
}
