/**
 * The run views this replica last put on status cards, by run id: what a card's refresh is
 * answered from (the card, with Stop and Cancel for those who may). Bounded; a replica that
 * has not shown a run answers a refresh with a pointer to `status` instead.
 */
import type { RunView } from '../../core/message/message-model.js';

export interface ShownRuns {
  remember(view: RunView): void;
  get(runId: string): RunView | undefined;
}

export function createShownRuns(limit = 5_000): ShownRuns {
  const views = new Map<string, RunView>();
  return {
    remember(view) {
      if (view.runId === '') return;
      views.delete(view.runId);
      views.set(view.runId, view);
      if (views.size > limit) views.delete(views.keys().next().value as string);
    },
    get: (runId) => views.get(runId),
  };
}
