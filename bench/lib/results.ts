/** The shape of a benchmark run's results (the JSON under bench/results/). */
import type { EndToEndResult } from '../scenarios/e2e.js';
import type { FirstSignResult } from '../scenarios/first-sign.js';
import type { FloorResult } from '../scenarios/floor.js';
import type { FootprintResult } from '../scenarios/footprint.js';
import type { IngestResult } from '../scenarios/ingest.js';
import type { LinearFirstResult } from '../scenarios/linear-first.js';
import type { ScaleoutResult } from '../scenarios/scaleout.js';
import type { TeamsFirstResult } from '../scenarios/teams-first.js';
import type { TrackingResult } from '../scenarios/tracking.js';
import type { MachineInfo } from './machine.js';

export interface Stamped<T> {
  ranAt: string;
  quick: boolean;
  machine: MachineInfo;
  durationMs: number;
  /** The 1/5/15-minute load average when the scenario ended. */
  loadAverageAfter?: number[];
  result: T;
}

export interface BenchResults {
  /** Bumped when the shape changes. */
  schema: 2;
  scenarios: {
    ingest?: Stamped<IngestResult>;
    tracking?: Stamped<TrackingResult>;
    footprint?: Stamped<FootprintResult>;
    e2e?: Stamped<EndToEndResult>;
    scaleout?: Stamped<ScaleoutResult>;
    'first-sign'?: Stamped<FirstSignResult>;
    floor?: Stamped<FloorResult>;
    'linear-first'?: Stamped<LinearFirstResult>;
    'teams-first'?: Stamped<TeamsFirstResult>;
  };
}
