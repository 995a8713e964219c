/**
 * One world per test, the way `relayPerTest` (relay.ts) does it for the relay: call at module
 * level with a world's starter (`startLinearWorld`, `startJiraWorld`, `startTeamsWorld`, …);
 * it returns the same starter, and after each test every world that starter started is
 * checked with `check` (when given) and closed.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

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

/**
 * Inside a `describe` (or at a file's top level): `start` before each test (with `'all'`, once
 * before the first) and `close` after it (after the last). The object returned stands for the
 * current one, so a suite declares it once, outside its tests; it throws outside a test, naming
 * `what`.
 */
export function currentPerTest<T extends object>(
  what: string,
  start: () => Promise<T>,
  close: (current: T) => Promise<void>,
  scope: 'each' | 'all' = 'each',
): T {
  let current: T | undefined;
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    current = await start();
  });
  (scope === 'each' ? afterEach : afterAll)(async () => {
    const closing = current;
    current = undefined;
    if (closing !== undefined) await close(closing);
  });
  return new Proxy({} as T, {
    get(_, key) {
      if (current === undefined) throw new Error(`${what} is only there inside a test`);
      const value: unknown = Reflect.get(current, key);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(current)
        : value;
    },
  });
}
