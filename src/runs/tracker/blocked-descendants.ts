/**
 * Orchestration descendants waiting for approval (docs/architecture.md, "Tracking cost"). A
 * tracked run may start child runs; a child that stops in BLOCKED (waiting for approval or
 * input) holds its parent up, yet the relay never tracked it. The batch listing already
 * shows every run of the team that changed, children included, so this costs no request:
 * among the listed items, a BLOCKED run whose parent (or root) is a tracked run is said in
 * that run's thread, once per BLOCKED episode (the store remembers the episode), with a link
 * to the child's session. A later listing that shows the child in another state ends the
 * episode.
 */
import type { RunItem } from '../../core/run.js';
import type { MessageModel, PersonView } from '../../core/message/message-model.js';
import type { Logger, RunRecord, Store } from '../../core/ports/index.js';
import { stateView } from '../../core/message/state-view.js';
import { toRunView } from '../../core/message/run-view.js';
import type { CycleStats } from './types.js';

/** The tracked runs a descendant may belong to, nearest first. */
function ancestorsOf(item: RunItem): string[] {
  const ids = [item.parent_run_id, item.root_run_id].filter(
    (id): id is string => typeof id === 'string' && id !== '' && id !== item.run_id,
  );
  return [...new Set(ids)];
}

/**
 * What the thread is told: the sub-run waits for approval, with Approve / Reject bound to the
 * sub-run's id and this episode (`version`), and its session, where it can be answered too.
 */
function blockedQuestion(
  child: RunItem,
  parent: RunRecord,
  version: number,
  now: number,
): MessageModel {
  const says = child.status_message?.message?.trim();
  const link = child.session_link ?? undefined;
  const requester: PersonView = {
    platform: parent.platform,
    id: parent.requester.id,
    ...(parent.requester.name ? { name: parent.requester.name } : {}),
  };
  return {
    type: 'review',
    run: toRunView({ run: child, record: { requester }, now }),
    review: {
      kind: 'action',
      version,
      subRun: {
        runId: child.run_id,
        ...(link ? { sessionLink: link } : {}),
        ...(says ? { says } : {}),
      },
    },
  };
}

export type DescendantWatch = (items: readonly RunItem[], stats: CycleStats) => Promise<void>;

export function createDescendantWatch(deps: {
  store: Store;
  log: Logger;
  now: () => number;
}): DescendantWatch {
  const { store, log } = deps;
  return async (items, stats) => {
    // A run listed twice keeps its last item (ascending order).
    const latest = new Map<string, RunItem>();
    for (const item of items) if (ancestorsOf(item).length > 0) latest.set(item.run_id, item);
    if (latest.size === 0) return;
    const blocked = [...latest.values()].filter((item) => stateView(item.state).blocked);
    const moved = [...latest.values()].filter((item) => !stateView(item.state).blocked);
    const now = deps.now();
    if (moved.length > 0) {
      await store.blockedDescendants.leave(
        moved.map((item) => item.run_id),
        now,
      );
    }
    if (blocked.length === 0) return;
    // The ancestors, and the children themselves: a run of the relay's own is told about in
    // its own thread, not as someone's sub-run.
    const ids = [...new Set([...blocked.flatMap(ancestorsOf), ...blocked.map((c) => c.run_id)])];
    const tracked = new Map(
      (await store.runs.getMany(ids)).filter((r) => r.tracked).map((r) => [r.runId, r]),
    );
    for (const child of blocked) {
      const parent = ancestorsOf(child)
        .map((id) => tracked.get(id))
        .find((r) => r !== undefined);
      if (!parent || tracked.has(child.run_id)) continue;
      const told = await store.transaction(async (tx) => {
        if (!(await store.blockedDescendants.enter(child.run_id, parent.runId, now))) return false;
        const episode = await store.blockedDescendants.get(child.run_id);
        await tx.outbox.enqueue(
          {
            kind: 'post',
            destination: { threadKey: parent.threadKey },
            message: blockedQuestion(child, parent, episode?.version ?? 1, now),
          },
          now,
        );
        return true;
      });
      if (told) {
        stats.notifications += 1;
        log.info({ runId: parent.runId, childRunId: child.run_id }, 'sub-run waits for approval');
      }
    }
  };
}
