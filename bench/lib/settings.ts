/**
 * How big each scenario is: the full run (the figures in docs/performance.md, about 20 minutes on a
 * 2-core machine) and the quick run (CI and the smoke test, well under a minute or two).
 */
export interface BenchSettings {
  ingest: {
    rates: number[];
    repeats: number;
    warmupMs: number;
    durationMs: number;
    /** Offered rates tried, in order, to find the highest sustainable one. */
    ladder: number[];
    /** Bisection steps between the last sustainable rate and the first that was not. */
    bisectSteps: number;
    /** How long to wait for the first status messages after the load (end to end). */
    drainMs: number;
  };
  tracking: {
    sizes: number[];
    /** Sizes at which per-run polling also runs without back-off (at the batch delay). */
    sameDelaySizes: number[];
    /** Mean time between two state changes of one run (a Poisson process over all runs). */
    perRunMeanIntervalMs: number;
    githubShare: number;
    pollIntervalMs: number;
    warmupMs: number;
    /**
     * More warm-up for the batch tracker (both, progress on and off): a run's progress is
     * first read once it has run 15 s, so the window sees the reads' steady state.
     */
    progressWarmupMs?: number;
    windowMs: number;
    /** Time after the window for the last changes to reach the fake APIs, per mode. */
    graceMs: { batch: number; 'per-run': number };
  };
  scaleout: {
    /** Live runs tracked (seeded in the emulator and the database). */
    n: number;
    replicas: number[];
    perRunMeanIntervalMs: number;
    pollIntervalMs: number;
    warmupMs: number;
    windowMs: number;
    graceMs: number;
    ingestReplicas: number[];
    ingestRates: number[];
    ingestDurationMs: number;
    /** Replica counts whose capacity is measured (floor's ladder, spread over the replicas). */
    capacityReplicas: number[];
    /** Finished runs (and threads) in the "history" database. */
    historyRuns: number;
    historyIngestRate: number;
  };
  floor: {
    /** Slack mentions per second (each in its own thread) for the CPU comparison. */
    rate: number;
    warmupMs: number;
    durationMs: number;
    /** How long the service's create call takes (a delaying proxy, as in first-sign). */
    createLatencyMs: number;
    /** Runs of each subject, in turn. */
    repeats: number;
    /** Wait after the load (plus the create latency) for the last messages and runs. */
    drainMs: number;
    /** After the last run arrived: its edit (chat.update) still counts. */
    settleMs: number;
    /** The capacity ladder: rates tried in order, each for `durationMs` (none: no ladder). */
    ladder: { rates: number[]; durationMs: number };
  };
  footprint: {
    threads: number;
    settleMs: number;
    readyRepeats: number;
    /** Also time `node dist/cli.js` built by tsc into a scratch directory. */
    compiled: boolean;
  };
  firstSign: {
    /** How long the service's create call takes, one phase each. */
    createLatenciesMs: number[];
    /** Slack mentions per second, each in its own thread. */
    rate: number;
    warmupMs: number;
    durationMs: number;
    /** Wait after the load (plus the create latency) for the last messages and runs. */
    drainMs: number;
    /**
     * Runs of each latency (in turn with the others). A p99 of one 300-request run is its
     * fourth-slowest request, and the floor's own moved by up to 1.9x between two runs here.
     */
    repeats: number;
  };
  linearFirst: {
    /** How long the service's create call takes, one phase each. */
    createLatenciesMs: number[];
    /** Linear agent sessions opened per second. */
    rate: number;
    warmupMs: number;
    durationMs: number;
    /** Wait after the load (plus the create latency) for the last first activities. */
    drainMs: number;
  };
  teamsFirst: {
    /** How long the service's create call takes, one phase each. */
    createLatenciesMs: number[];
    /** Teams channel mentions per second, each a new post (its own thread). */
    rate: number;
    warmupMs: number;
    durationMs: number;
    /** Wait after the load (plus the create latency) for the last first activities. */
    drainMs: number;
  };
}

export const FULL: BenchSettings = {
  ingest: {
    rates: [100, 300],
    repeats: 3,
    warmupMs: 2_000,
    durationMs: 8_000,
    ladder: [450, 675, 1000, 1500, 2250],
    bisectSteps: 2,
    drainMs: 12_000,
  },
  tracking: {
    sizes: [100, 1_000, 5_000],
    sameDelaySizes: [1_000],
    perRunMeanIntervalMs: 600_000,
    githubShare: 0.1,
    pollIntervalMs: 2_000,
    warmupMs: 4_000,
    progressWarmupMs: 16_000,
    windowMs: 30_000,
    graceMs: { batch: 8_000, 'per-run': 32_000 },
  },
  scaleout: {
    n: 1_000,
    replicas: [1, 2, 3],
    perRunMeanIntervalMs: 600_000,
    pollIntervalMs: 2_000,
    warmupMs: 6_000,
    windowMs: 30_000,
    graceMs: 8_000,
    ingestReplicas: [1, 3],
    ingestRates: [100, 300],
    ingestDurationMs: 8_000,
    capacityReplicas: [1, 3],
    historyRuns: 1_000_000,
    historyIngestRate: 100,
  },
  footprint: { threads: 10_000, settleMs: 20_000, readyRepeats: 3, compiled: true },
  firstSign: {
    createLatenciesMs: [0, 1_000, 3_000, 10_000],
    rate: 10,
    warmupMs: 1_000,
    durationMs: 30_000,
    drainMs: 15_000,
    repeats: 3,
  },
  floor: {
    rate: 30,
    warmupMs: 1_000,
    durationMs: 20_000,
    createLatencyMs: 0,
    repeats: 3,
    drainMs: 15_000,
    settleMs: 1_000,
    ladder: { rates: [30, 60, 90, 120, 150, 200, 250, 300], durationMs: 10_000 },
  },
  linearFirst: {
    createLatenciesMs: [0, 10_000],
    rate: 2,
    warmupMs: 2_000,
    durationMs: 30_000,
    drainMs: 10_000,
  },
  teamsFirst: {
    createLatenciesMs: [0, 3_000],
    rate: 5,
    warmupMs: 1_000,
    durationMs: 30_000,
    drainMs: 10_000,
  },
};

export const QUICK: BenchSettings = {
  ingest: {
    rates: [100],
    repeats: 1,
    warmupMs: 500,
    durationMs: 1_500,
    ladder: [200],
    bisectSteps: 0,
    drainMs: 3_000,
  },
  tracking: {
    sizes: [20, 100],
    sameDelaySizes: [100],
    perRunMeanIntervalMs: 20_000,
    githubShare: 0.1,
    pollIntervalMs: 500,
    warmupMs: 500,
    windowMs: 2_500,
    graceMs: { batch: 1_000, 'per-run': 1_000 },
  },
  scaleout: {
    n: 50,
    replicas: [1, 3],
    perRunMeanIntervalMs: 20_000,
    pollIntervalMs: 500,
    warmupMs: 1_000,
    windowMs: 3_000,
    graceMs: 1_500,
    ingestReplicas: [1, 3],
    ingestRates: [50],
    ingestDurationMs: 1_500,
    capacityReplicas: [1, 3],
    historyRuns: 10_000,
    historyIngestRate: 50,
  },
  footprint: { threads: 500, settleMs: 1_000, readyRepeats: 1, compiled: false },
  firstSign: {
    createLatenciesMs: [0, 1_000],
    rate: 10,
    warmupMs: 300,
    durationMs: 2_000,
    drainMs: 4_000,
    repeats: 1,
  },
  floor: {
    rate: 10,
    warmupMs: 300,
    durationMs: 2_000,
    createLatencyMs: 0,
    repeats: 1,
    drainMs: 4_000,
    settleMs: 300,
    ladder: { rates: [10, 20], durationMs: 1_000 },
  },
  linearFirst: {
    createLatenciesMs: [0, 1_000],
    rate: 2,
    warmupMs: 500,
    durationMs: 2_000,
    drainMs: 4_000,
  },
  teamsFirst: {
    createLatenciesMs: [0, 3_000],
    rate: 5,
    warmupMs: 500,
    durationMs: 2_000,
    drainMs: 4_000,
  },
};
