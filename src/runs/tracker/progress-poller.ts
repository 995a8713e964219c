/**
 * Progress of running runs: what each one's agent is doing now, read from the service (the
 * conversation while the agent works, the timeline while it sets up) and shown by editing the
 * run's status message, only when what it shows changes. Reads are rationed (read-budget.ts):
 * a run is read at most once per `intervalMs`, and never before it has been running that
 * long (a short run needs no progress); among the runs due, one someone looked at recently
 * (a follow-up, `status`) goes first, then the one read longest ago. A run without a
 * conversation (404) or with one the service cannot normalize (422) shows its state only.
 * Runs only while this replica holds the tracking lease; its memory is per process, so after
 * a restart each run's progress is shown afresh once.
 */
import type { RunItem } from '../../core/run.js';
import type { AgentService, Clock, Logger, Store } from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import {
  progressFromConversation,
  progressFromTimeline,
  progressKey,
  type ProgressView,
} from '../../core/message/progress.js';
import { runStatusMessage } from '../../core/message/render-model.js';
import { viewOf } from '../../core/message/run-view.js';
import { isLiveState } from '../../core/run.js';
import { forEachLimit } from '../workers/for-each-limit.js';
import { createReadBudget } from './read-budget.js';

export interface ProgressOptions {
  /** Progress reads per minute for all runs together (0: progress off). */
  readsPerMinute: number;
  /** Least time between two reads of one run, and before its first. Default 15 s. */
  intervalMs?: number;
  /** How long a look at a run (follow-up, status) puts it first. Default 10 minutes. */
  lookedForMs?: number;
}

export interface ProgressPoller {
  /** One round: read the runs due, within the budget; answers how many were read. */
  tick(): Promise<number>;
  /**
   * What the status message shows of this run now, for the tracker's own edits of it in
   * `state` (set-up events only while setting up, steps only after).
   */
  progressOf(runId: string, state: string): ProgressView | undefined;
  /** The run as the service last described it (the status message is built from it). */
  noteItem(item: RunItem): void;
  /** Someone looked at this run: read it first, and show its progress again. */
  looked(runId: string): void;
  /** Forget everything (the tracking lease went elsewhere). */
  reset(): void;
}

interface Memory {
  runningSince: number;
  lastReadAt: number;
  lookedAt: number;
  item?: RunItem;
  progress?: ProgressView;
  shownKey: string;
  /** The service answered 422 for its conversation: read no more of it. */
  unsupported?: boolean;
}

/** Set-up is under way (the timeline tells it); every other live state past it is work. */
function settingUp(state: string): boolean {
  return state === 'CLAIMED';
}
function running(state: string): boolean {
  return isLiveState(state) && state !== 'QUEUED' && state !== 'PENDING';
}

export function createProgressPoller(deps: {
  store: Store;
  agent: AgentService;
  clock: Clock;
  log: Logger;
  options: ProgressOptions;
  /** After edits were queued. */
  notifyOutbox?: () => void;
}): ProgressPoller {
  const { store, agent, clock, log, options } = deps;
  const intervalMs = options.intervalMs ?? 15_000;
  const lookedForMs = options.lookedForMs ?? 600_000;
  let budget = createReadBudget(options.readsPerMinute, clock.now());
  const memory = new Map<string, Memory>();

  async function read(
    runId: string,
    state: string,
    mem: Memory,
  ): Promise<ProgressView | undefined> {
    if (settingUp(state)) {
      if (!agent.getTimeline) return undefined;
      return progressFromTimeline(await agent.getTimeline(runId));
    }
    if (!agent.getConversation || mem.unsupported) return undefined;
    try {
      return progressFromConversation(await agent.getConversation(runId));
    } catch (err) {
      if (isServiceError(err) && err.code === 'not_found') return undefined;
      if (isServiceError(err) && err.code === 'unprocessable') {
        mem.unsupported = true;
        return undefined;
      }
      throw err;
    }
  }

  /** Edit the status message, from the record as it is now (never a step back). */
  async function show(runId: string, mem: Memory, progress: ProgressView): Promise<boolean> {
    // Paid for when the run was chosen (tick).
    if (!mem.item) mem.item = await agent.getRun(runId);
    const item = mem.item;
    const now = clock.now();
    return store.transaction(async (tx) => {
      const record = await tx.runs.get(runId);
      if (!record || !record.tracked || !running(record.state)) return false;
      const view = viewOf(record, { ...item, state: record.state }, now);
      await tx.outbox.enqueue(
        {
          kind: 'status',
          destination: { threadKey: record.threadKey },
          runId,
          message: runStatusMessage({ ...view, progress }),
        },
        now,
      );
      return true;
    });
  }

  async function readOne(runId: string, state: string, mem: Memory): Promise<boolean> {
    mem.lastReadAt = clock.now();
    let progress: ProgressView | undefined;
    try {
      progress = await read(runId, state, mem);
    } catch (err) {
      if (isServiceError(err) && err.code === 'rate_limit') {
        budget.pause(clock.now() + (err.retryAfterMs ?? 30_000));
        return false;
      }
      log.debug({ err, runId }, 'could not read the run’s progress; state only for now');
      return false;
    }
    // Nothing to tell (yet), or nothing new: the message stays as it is.
    if (progress === undefined) return false;
    const key = progressKey(progress);
    if (key === mem.shownKey) return false;
    mem.progress = progress;
    if (!(await show(runId, mem, progress))) return false;
    mem.shownKey = key;
    return true;
  }

  return {
    async tick() {
      if (options.readsPerMinute <= 0) return 0;
      const now = clock.now();
      const briefs = await store.runs.listTrackedBrief();
      const live = new Set<string>();
      for (const brief of briefs) {
        if (!running(brief.state)) continue;
        live.add(brief.runId);
        if (!memory.has(brief.runId)) {
          memory.set(brief.runId, { runningSince: now, lastReadAt: 0, lookedAt: 0, shownKey: '' });
        }
      }
      for (const runId of memory.keys()) if (!live.has(runId)) memory.delete(runId);
      const due = briefs
        .filter((b) => live.has(b.runId))
        .map((b) => ({ brief: b, mem: memory.get(b.runId)! }))
        .filter(({ mem }) => now - Math.max(mem.lastReadAt, mem.runningSince) >= intervalMs)
        .sort((a, b) => {
          const lookedA = now - a.mem.lookedAt < lookedForMs ? 0 : 1;
          const lookedB = now - b.mem.lookedAt < lookedForMs ? 0 : 1;
          return lookedA - lookedB || a.mem.lastReadAt - b.mem.lastReadAt;
        });
      if (due.length === 0) return 0;
      // A run whose detail this process has not seen yet costs a second read (its status
      // message is built from it): both come out of the budget.
      let left = budget.available(now);
      const chosen: typeof due = [];
      for (const entry of due) {
        const cost = entry.mem.item ? 1 : 2;
        if (cost > left) break;
        left -= cost;
        budget.spend(cost);
        chosen.push(entry);
      }
      let edits = 0;
      await forEachLimit(chosen, 4, async ({ brief, mem }) => {
        if (await readOne(brief.runId, brief.state, mem)) edits += 1;
      });
      if (edits > 0) deps.notifyOutbox?.();
      return chosen.length;
    },
    progressOf(runId, state) {
      const progress = memory.get(runId)?.progress;
      if (progress === undefined || !running(state)) return undefined;
      return (progress.kind === 'setup') === settingUp(state) ? progress : undefined;
    },
    noteItem(item) {
      const mem = memory.get(item.run_id);
      if (mem) mem.item = item;
    },
    looked(runId) {
      const mem = memory.get(runId);
      if (!mem) return;
      mem.lookedAt = clock.now();
      // Its status message may have been redrawn without the steps: show them again.
      mem.shownKey = '';
    },
    reset() {
      memory.clear();
      budget = createReadBudget(options.readsPerMinute, clock.now());
    },
  };
}
