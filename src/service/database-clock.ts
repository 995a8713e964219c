/**
 * A replica's clock, set from the database's where replicas share one (PostgreSQL): leases,
 * due times and record times are compared across replicas, so they must come from one clock.
 * The offset between the database's clock and this process's is measured at start and again
 * every `resyncMs` (each reading corrected by half the round trip); `now()` is this process's
 * clock plus that offset, so it costs no query. A replica whose own clock is minutes off
 * still reads the database's time, to within a round trip and the drift between readings.
 */
import type { Clock, Logger } from '../core/ports/index.js';

export interface DatabaseClock extends Clock {
  /** The last measured offset (database minus local), ms. */
  offsetMs(): number;
  close(): void;
}

export const DATABASE_CLOCK_RESYNC_MS = 1_000;

export async function createDatabaseClock(deps: {
  local: Clock;
  databaseTime: () => Promise<number>;
  logger: Logger;
  resyncMs?: number;
}): Promise<DatabaseClock> {
  const { local, databaseTime, logger } = deps;
  let offset = 0;
  const measure = async () => {
    const before = local.now();
    const server = await databaseTime();
    const after = local.now();
    if (Number.isFinite(server)) offset = server - (before + after) / 2;
  };
  await measure();
  if (Math.abs(offset) > 1_000) {
    logger.warn(
      { offsetMs: Math.round(offset) },
      "this replica's clock differs from the database's; times are taken from the database",
    );
  }
  let measuring = false;
  const timer = setInterval(() => {
    if (measuring) return;
    measuring = true;
    measure()
      .catch((err: unknown) =>
        logger.debug({ err }, 'could not read the database clock; keeping the last offset'),
      )
      .finally(() => (measuring = false));
  }, deps.resyncMs ?? DATABASE_CLOCK_RESYNC_MS);
  timer.unref();
  return {
    now: () => Math.round(local.now() + offset),
    offsetMs: () => offset,
    close: () => clearInterval(timer),
  };
}
