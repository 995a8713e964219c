/**
 * Ingress first. Answering Slack (3 s) and GitHub (10 s) in time is the relay's one hard
 * deadline, and its workers (inbox, outbox, tracker) share the event loop with the ingress.
 * While requests arrive in a burst and the loop is busy, the workers make room: before each
 * claim they wait for the burst to ease, at most `maxDeferMs`, and then take one item at a
 * time. Work is never starved: at least one item per `maxDeferMs` goes on, and everything
 * queued is carried out at full speed once the burst is over.
 */
import { performance } from 'node:perf_hooks';

export interface IngressPriority {
  /** A request to an ingress route arrived. */
  arrived(): void;
  /** Requests are arriving in a burst and the event loop is busy. */
  busy(): boolean;
  /** Resolves once not busy, or after `maxDeferMs`. */
  clear(): Promise<void>;
  close(): void;
}

/** What the workers see of it. */
export type IngressPriorityGate = Pick<IngressPriority, 'busy' | 'clear'>;

export interface IngressPriorityOptions {
  /** Arrivals per second that make a burst. Default 40. */
  burstPerSecond?: number;
  /** Event-loop utilisation (0..1) above which a burst makes the workers wait. Default 0.25. */
  busyUtilization?: number;
  /** Longest wait of one claim. Default 500 ms. */
  maxDeferMs?: number;
  /** Measuring window. Default 250 ms. */
  windowMs?: number;
}

export function createIngressPriority(options: IngressPriorityOptions = {}): IngressPriority {
  const windowMs = options.windowMs ?? 250;
  const burst = Math.max(1, Math.round(((options.burstPerSecond ?? 40) * windowMs) / 1000));
  const busyUtilization = options.busyUtilization ?? 0.25;
  const maxDeferMs = options.maxDeferMs ?? 500;

  let arrivals = 0;
  let lastWindowArrivals = 0;
  let lastUtilization = 0;
  let elu = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const next = performance.eventLoopUtilization();
    lastUtilization = performance.eventLoopUtilization(next, elu).utilization;
    elu = next;
    lastWindowArrivals = arrivals;
    arrivals = 0;
  }, windowMs);
  timer.unref();

  const busy = () =>
    Math.max(arrivals, lastWindowArrivals) >= burst && lastUtilization >= busyUtilization;
  const step = Math.max(5, Math.round(windowMs / 10));

  return {
    arrived() {
      arrivals += 1;
    },
    busy,
    async clear() {
      const until = performance.now() + maxDeferMs;
      while (busy() && performance.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, step));
      }
    },
    close: () => clearInterval(timer),
  };
}
