/**
 * `list [state=…] [name=…] [mine]`: recent runs from the service with the filters; `mine`
 * keeps the runs this person started through the relay (our `relay_actor` stamp, or our
 * own record of the requester). At most LIST_SHOWN runs are shown.
 */
import type { RunItem } from '../../agent/schemas.js';
import type { Command } from '../../core/command/command.js';
import { listMessage } from '../../core/message/render-model.js';
import { actorTag } from './run-metadata.js';
import { viewOf } from '../../core/message/run-view.js';
import type { RunsDeps } from '../runs-deps.js';
import { replyWith, type Effects, type TriggerJob } from './trigger-job.js';

export const LIST_SHOWN = 10;
/** How many recent runs `mine` looks through. */
export const MINE_SCAN = 100;

type ListCommand = Extract<Command, { type: 'list' }>;

export async function listRuns(
  deps: RunsDeps,
  job: TriggerJob,
  command: ListCommand,
): Promise<Effects> {
  const page = await deps.agent.listRuns({
    limit: command.mine ? MINE_SCAN : LIST_SHOWN + 1,
    ...(command.state && command.state.length > 0 ? { state: command.state } : {}),
    ...(command.name ? { name: command.name } : {}),
    sort_by: 'created_at',
    sort_order: 'desc',
  });
  let runs: RunItem[] = page.runs;
  if (command.mine) {
    const tag = actorTag(job.trigger);
    const mine: RunItem[] = [];
    for (const run of runs) {
      if (run.metadata?.relay_actor === tag) {
        mine.push(run);
        continue;
      }
      const record = await deps.store.runs.get(run.run_id);
      if (
        record &&
        record.platform === job.trigger.platform &&
        record.requester.id === job.trigger.actor.id
      ) {
        mine.push(run);
      }
    }
    runs = mine;
  }
  const truncated = runs.length > LIST_SHOWN || (page.hasNextPage && !command.mine);
  const now = deps.clock.now();
  const views = [];
  for (const run of runs.slice(0, LIST_SHOWN)) {
    views.push(viewOf(await deps.store.runs.get(run.run_id), run, now));
  }
  const filters = {
    ...(command.state && command.state.length > 0 ? { state: command.state } : {}),
    ...(command.name ? { name: command.name } : {}),
    ...(command.mine ? { mine: true } : {}),
  };
  return replyWith(job, listMessage(views, filters, truncated));
}
