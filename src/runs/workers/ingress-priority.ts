/**
 * Ingress first. Answering Slack (3 s) and GitHub (10 s) in time is the relay's one hard
 * deadline, and its workers (inbox, outbox, tracker) share the event loop with the ingress.
 * While requests arrive in a burst, the workers make room: before each claim they wait for
 * the burst to end. Work is never starved: a burst holds the workers back for at most
 * `maxBurstMs`, and everything queued is carried out at full speed once it is over. (They
 * used to take one item every half second during a burst; in the benchmark that trickle
 * raised the acknowledgements' p99 ratio to the floor from 1.43x to 1.50x, medians of ten
 * repetitions, for a handful of items.)
 *
 * A burst is decided by the arrival rate alone. (An earlier version also required a busy
 * event loop; but the loop is busy with the workers' own work too, so the gate opened and
 * closed with it, and the workers ran in spurts right into the burst.) The rate threshold is
 * far above what one Slack workspace can send for long (Slack caps the Events API at 30,000
 * events an hour, about 8 a second), so below it nothing ever waits.
 *
 * Let the answer be read. Writing an answer wakes its reader, and when the reader runs on the
 * same machine (a reverse proxy, a tunnel, a sidecar, the benchmark's load generator) Linux
 * queues it on the CPU of the thread that wrote to the socket: a "sync" wakeup, which assumes
 * the writer is about to sleep. Traced with perf's scheduler events here (a 2-vCPU KVM guest),
 * the reader then waited for our thread to sleep or use up its time slice, ~3-4 ms behind the
 * worker steps an acknowledged trigger starts, even while the other vCPU was idle. So for
 * `settleMs` after a request arrived, a worker step begins on a timer turn (the event loop
 * sleeps in the kernel if nothing else is ready, and the reader runs) instead of at once: the
 * step starts ~1 ms later, nothing else changes. `turn()` is that same turn for other
 * background work: the SQLite connection gate takes it before each background statement
 * (store/sqlite/connection-gate.ts), so a step already under way also pauses for the reader.
 */
import { performance } from 'node:perf_hooks';

export interface IngressPriority {
  /** A request to an ingress route arrived. */
  arrived(): void;
  /** Requests are arriving in a burst (and it has not gone on past `maxBurstMs`). */
  busy(): boolean;
  /**
   * Resolves once not busy (a burst ends, or has gone on past `maxBurstMs`), then after a turn
   * of the event loop: a timer turn within `settleMs` of a request, else the check phase.
   */
  clear(): Promise<void>;
  /**
   * One turn of the event loop for background work: a timer turn within `settleMs` of a
   * request (the loop sleeps if nothing else is ready), else the check phase.
   */
  turn(): Promise<void>;
  close(): void;
}

/** What the workers see of it. */
export type IngressPriorityGate = Pick<IngressPriority, 'busy' | 'clear'>;

export interface IngressPriorityOptions {
  /** Arrivals per second that make a burst. Default 40. */
  burstPerSecond?: number;
  /**
   * Longest a burst holds the workers back. Past it the arrivals are sustained load, not a
   * burst: the workers go on at full speed until a window below the threshold. Default 30 s.
   */
  maxBurstMs?: number;
  /** Measuring window. Default 250 ms. */
  windowMs?: number;
  /**
   * For this long after a request arrived, a worker step begins on a timer turn rather than
   * on the next check phase (see "Let the answer be read" above). Default 20 ms; 0: never.
   */
  settleMs?: number;
  /** Milliseconds on a monotonic clock (tests). Default `performance.now`. */
  now?: () => number;
}

export function createIngressPriority(options: IngressPriorityOptions = {}): IngressPriority {
  const windowMs = options.windowMs ?? 250;
  const burst = Math.max(1, Math.round(((options.burstPerSecond ?? 40) * windowMs) / 1000));
  const maxBurstMs = options.maxBurstMs ?? 30_000;
  const settleMs = options.settleMs ?? 20;
  const now = options.now ?? (() => performance.now());
  let lastArrival = Number.NEGATIVE_INFINITY;

  let arrivals = 0;
  let lastWindowArrivals = 0;
  /** When the current run of burst windows began; undefined: no burst. */
  let burstSince: number | undefined;
  const timer = setInterval(() => {
    lastWindowArrivals = arrivals;
    arrivals = 0;
    if (lastWindowArrivals < burst) burstSince = undefined;
    else burstSince ??= now() - windowMs;
  }, windowMs);
  timer.unref();

  const busy = () =>
    Math.max(arrivals, lastWindowArrivals) >= burst &&
    (burstSince === undefined || now() - burstSince < maxBurstMs);
  const step = Math.max(5, Math.round(windowMs / 10));
  const turn = () =>
    new Promise<void>((resolve) => {
      if (now() - lastArrival < settleMs) setTimeout(resolve, 1);
      else setImmediate(resolve);
    });

  return {
    arrived() {
      arrivals += 1;
      lastArrival = now();
    },
    busy,
    async clear() {
      while (busy()) await new Promise((resolve) => setTimeout(resolve, step));
      // Also outside a burst, a worker step lets requests that arrived meanwhile in first:
      // steps whose store calls finish at once (SQLite) would otherwise run back to back
      // without ever letting the event loop read the network.
      await turn();
    },
    turn,
    close: () => clearInterval(timer),
  };
}
