/** Retry delays: exponential with a cap and jitter from the injected Random. */
import type { Random } from '../../core/ports/index.js';

export function backoffDelay(
  attempt: number,
  options: { baseMs: number; maxMs: number; random: Random; jitter?: number },
): number {
  const raw = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt));
  const jitter = options.jitter ?? 0.2;
  return Math.round(raw * (1 - jitter + 2 * jitter * options.random.float()));
}

/** A sleep that `stop()` can cut short. */
export function createWaiter(): { wait(ms: number): Promise<void>; wake(): void } {
  let pending: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  let woken = false;
  return {
    wait(ms) {
      if (woken) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          pending = undefined;
          resolve();
        }, ms);
        pending = { timer, resolve };
      });
    },
    wake() {
      if (!pending) {
        woken = true;
        return;
      }
      clearTimeout(pending.timer);
      const { resolve } = pending;
      pending = undefined;
      resolve();
    },
  };
}
