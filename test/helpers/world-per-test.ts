/**
 * One world per test, the way `relayPerTest` (relay.ts) does it for the relay: call at module
 * level with a world's starter (`startLinearWorld`, `startJiraWorld`, `startTeamsWorld`, …);
 * it returns the same starter, and after each test every world that starter started is
 * checked with `check` (when given) and closed.
 */
import { afterEach } from 'vitest';

export function worldPerTest<A extends unknown[], W extends { close(): Promise<void> }>(
  start: (...args: A) => Promise<W>,
  check?: (world: W) => void,
): (...args: A) => Promise<W> {
  const open: W[] = [];
  afterEach(async () => {
    const worlds = open.splice(0);
    try {
      for (const w of worlds) check?.(w);
    } finally {
      await Promise.all(worlds.map((w) => w.close()));
    }
  });
  return async (...args: A) => {
    const world = await start(...args);
    open.push(world);
    return world;
  };
}
