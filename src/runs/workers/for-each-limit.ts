/**
 * `fn` over `items`, at most `limit` at a time. Each item begins on a new turn of the event
 * loop: with SQLite a store call finishes at once, so a tracker cycle applying many changes
 * would otherwise run them back to back without the loop reading the network, and every
 * request and first sign arriving meanwhile would wait for the whole cycle.
 */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await new Promise((resolve) => setImmediate(resolve));
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
