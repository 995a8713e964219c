/**
 * Tracker tests on a hand-driven clock shared by the emulator and the tracker: the emulator's
 * `updated_at` values are exact, so the `updated_after` each listing sends can be asserted.
 * The AgentService port can be decorated (recording listings, slimming list items).
 */
import type { ListRunsQuery } from '../../../src/agent/schemas.js';
import type { AgentService, OutboxKind, Store } from '../../../src/core/ports/index.js';
import {
  createTracker,
  type Tracker,
  type TrackerDeps,
} from '../../../src/runs/tracker/tracker.js';
import {
  createSeqRandom,
  startTestEnv,
  TEST_OPTIONS,
  trackedRecord,
  type TestEnv,
} from '../fixtures.js';

export interface ClockedEnv extends TestEnv {
  /** The shared clock (epoch ms); tests move it. */
  clock: { now(): number; t: number; advance(ms: number): number };
  /** Every listing query the decorated port sent, oldest first. */
  listings: ListRunsQuery[];
  /** The decorated port trackers use. */
  port: AgentService;
  /** Make the port's list items summaries (no artifacts, status_message, run_time). */
  slimListItems: boolean;
  /** Run the emulator's clock this far behind the shared clock (an out-of-order commit). */
  emulatorLagMs: number;
  /** A tracker on the shared clock; with `lease`, one of several replicas sharing the store. */
  tracker(
    overrides?: Partial<TrackerDeps['options']>,
    store?: Store,
    lease?: TrackerDeps['lease'],
    gate?: TrackerDeps['gate'],
  ): Tracker;
  /** Record `ids` as tracked runs, as seen now in the emulator. */
  track(ids: readonly string[], store?: Store): Promise<void>;
  /** Notifications queued for a run, by kind. */
  queued(runId: string, kind: OutboxKind, store?: Store): Promise<number>;
}

export const START = Date.parse('2030-01-01T00:00:00.000Z');

export async function startClockedEnv(): Promise<ClockedEnv> {
  const clock = {
    t: START,
    now: () => clock.t,
    advance: (ms: number) => (clock.t += ms),
  };
  const self: { env?: ClockedEnv } = {};
  const base = await startTestEnv({
    emulator: { clock: { now: () => clock.t - (self.env?.emulatorLagMs ?? 0) } },
  });
  const listings: ListRunsQuery[] = [];
  const port: AgentService = {
    ...base.agent,
    async listRuns(query, options) {
      listings.push({ ...query });
      const page = await base.agent.listRuns(query, options);
      if (!self.env?.slimListItems) return page;
      const runs = page.runs.map((item) => {
        const slim = { ...item };
        delete slim.artifacts;
        delete slim.status_message;
        delete slim.run_time;
        return slim;
      });
      return { ...page, runs };
    },
  };
  const tracker = (
    overrides: Partial<TrackerDeps['options']> = {},
    store = base.store,
    lease?: TrackerDeps['lease'],
    gate?: TrackerDeps['gate'],
  ): Tracker =>
    createTracker({
      store,
      ...(lease ? { lease } : {}),
      ...(gate ? { gate } : {}),
      agent: port,
      clock,
      random: createSeqRandom(),
      logger: base.logger,
      metrics: base.metrics,
      budgetWords: TEST_OPTIONS,
      options: {
        mode: 'batch',
        pollIntervalMs: 2_000,
        maxCheckIntervalMs: 2_000,
        blockedCheckIntervalMs: 2_000,
        ...overrides,
      },
    });
  async function track(ids: readonly string[], store = base.store): Promise<void> {
    for (const [i, runId] of ids.entries()) {
      const item = base.emulator.runs.get(runId);
      if (!item) throw new Error(`no run ${runId} in the emulator`);
      await store.runs.insert(
        trackedRecord(runId, clock.t, {
          threadKey: `slack:T1:C1:1700003000.${String(i).padStart(6, '0')}`,
          title: item.title,
          state: item.state,
          serviceUpdatedAt: item.updated_at,
          checkIntervalMs: 2_000,
        }),
      );
    }
  }
  async function queued(runId: string, kind: OutboxKind, store = base.store): Promise<number> {
    const items = await store.outboxQueue.list();
    return items.filter((i) => i.payload.runId === runId && i.payload.kind === kind).length;
  }
  const env: ClockedEnv = {
    ...base,
    clock,
    listings,
    port,
    slimListItems: false,
    emulatorLagMs: 0,
    tracker,
    track,
    queued,
  };
  self.env = env;
  return env;
}

/** A small deterministic PRNG (mulberry32) for "random" state changes. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export const iso = (ms: number): string => new Date(ms).toISOString();
