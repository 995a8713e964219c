/**
 * The in-memory run store: runs by id and by session, an index by state (so state-filtered
 * lists, the usual tracker query, touch only matching runs), follow-ups.
 */
import type { EmuRun, RecordedFollowup } from './types.js';

export interface RunStore {
  insert(run: EmuRun): void;
  get(runId: string): EmuRun | undefined;
  getBySession(sessionId: string): EmuRun | undefined;
  all(): IterableIterator<EmuRun>;
  /** Runs in any of `states` (unordered). */
  inStates(states: Iterable<string>): Generator<EmuRun>;
  count(): number;
  countByState(): Record<string, number>;
  /** Record a state change: index, history and updated_at (never moves backwards). */
  setState(run: EmuRun, state: string, at: number): void;
  nextSeq(): number;
  followups: RecordedFollowup[];
}

export function createRunStore(): RunStore {
  const runs = new Map<string, EmuRun>();
  const bySession = new Map<string, EmuRun>();
  const byState = new Map<string, Set<EmuRun>>();
  let seq = 0;

  function indexAdd(run: EmuRun): void {
    let set = byState.get(run.state);
    if (!set) {
      set = new Set();
      byState.set(run.state, set);
    }
    set.add(run);
  }

  return {
    insert(run) {
      runs.set(run.runId, run);
      bySession.set(run.sessionId, run);
      indexAdd(run);
    },
    get: (runId) => runs.get(runId),
    getBySession: (sessionId) => bySession.get(sessionId),
    all: () => runs.values(),
    *inStates(states) {
      for (const state of new Set(states)) {
        const set = byState.get(state);
        if (set) yield* set;
      }
    },
    count: () => runs.size,
    countByState() {
      const out: Record<string, number> = {};
      for (const [state, set] of byState) if (set.size > 0) out[state] = set.size;
      return out;
    },
    setState(run, state, at) {
      byState.get(run.state)?.delete(run);
      run.state = state;
      run.updatedAt = Math.max(run.updatedAt, at);
      run.history.push({ state, at });
      indexAdd(run);
    },
    nextSeq: () => ++seq,
    followups: [],
  };
}
