/**
 * The parameters every fast-check property here runs with, so that any failure can be replayed.
 *
 * - The seed is fresh on each run (the properties keep exploring) unless `FC_SEED` fixes it;
 *   `FC_PATH` replays one counterexample. A failing `fc.assert` names both in its message
 *   (`{ seed: …, path: … }`): run the file again with `FC_SEED=… FC_PATH=…`.
 * - `FC_RUNS` overrides every property's number of runs (more for a long fuzzing session,
 *   fewer for a quick look).
 * - A property that runs past its time limit fails with its seed rather than being cut off by
 *   the test runner's timeout, which would print nothing to replay it with.
 *
 * Arbitraries keep their own bounds (`maxLength`, integer ranges); fast-check's default size
 * (`small`) caps arrays and strings that name no `maxLength`.
 */
import type fc from 'fast-check';

function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be a whole number, not ${raw}`);
  return value;
}

const SEED = envNumber('FC_SEED') ?? Math.floor(Math.random() * 0x7fffffff);
const PATH = process.env.FC_PATH?.trim() || undefined;
const RUNS = envNumber('FC_RUNS');

/** Below the test timeout (vitest.config.ts) so fast-check, not vitest, reports a slow run. */
const TIME_LIMIT_MS = 15_000;

/** Options for `fc.assert`: `numRuns` is this property's own default. */
export function propertyOptions<T>(numRuns = 100): fc.Parameters<T> {
  return {
    seed: SEED,
    ...(PATH === undefined ? {} : { path: PATH }),
    numRuns: RUNS ?? numRuns,
    interruptAfterTimeLimit: TIME_LIMIT_MS,
    markInterruptAsFailure: true,
  };
}
