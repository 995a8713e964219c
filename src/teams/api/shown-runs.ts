/**
 * What a status card's refresh is answered with (the card, with Stop and Cancel for those who
 * may). The relay's record of the run (its title, state, requester, settings and cost, kept in
 * the database every replica shares) is enough for any replica to draw it, so a refresh that
 * reaches a replica other than the one that last edited the card still gets the card and its
 * buttons. The replica that drew the card also remembers the view it put there (bounded), with
 * what the record does not keep (the agent's last steps, the links); it answers from that
 * view while it still says what the record says.
 */
import type { RunView } from '../../core/message/message-model.js';
import { viewOf } from '../../core/message/run-view.js';
import type { RunRecord } from '../../core/ports/index.js';

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

/**
 * The view a refresh of `run`'s card shows: this replica's last one when it is of the state
 * and title the record holds now, else the record's (as `status` and the notifier build it).
 */
export function refreshView(run: RunRecord, shown: ShownRuns, now: number): RunView {
  const remembered = shown.get(run.runId);
  if (remembered?.state.name === run.state && remembered.title === run.title) return remembered;
  return viewOf(run, { run_id: run.runId, title: run.title, state: run.state }, now);
}
