/** Poll a condition until it holds or a deadline passes (bounded waits instead of sleeps). */
export async function waitUntil<T>(
  check: () => T | Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const intervalMs = options.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(
        `waitUntil timed out after ${timeoutMs} ms: ${options.message ?? ''} (last: ${detail})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
