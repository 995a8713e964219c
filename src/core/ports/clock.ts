/** Injected time: every component reads the clock through this port, so tests can hold it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };
