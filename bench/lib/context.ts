/** What every scenario gets: its settings, the backends process, a scratch dir, options. */
import type { Backends } from './processes.js';
import type { BenchSettings } from './settings.js';

export interface ScenarioContext {
  settings: BenchSettings;
  quick: boolean;
  backends: Backends;
  /** Scratch directory for databases and child logs (removed at the end). */
  workDir: string;
  logLevel: string;
  /** Set with --profile: the service writes .cpuprofile files here. */
  profileDir?: string;
  /** `--baseline DIR`: another source tree whose service the floor scenario runs too. */
  baseline?: string;
  /** `--postgres`: the floor scenario runs agent-relay on PostgreSQL. */
  postgres?: boolean;
  log(line: string): void;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
